package pgserver

// RaceDetector reports whether the servers this package builds run under
// the race detector, whose shadow memory multiplies their resident size:
// tests that bound a server's memory check the bound only without it.
func RaceDetector() bool { return raceDetector }
