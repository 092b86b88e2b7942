//go:build race

package storage

// raceDetector says the tests run with the race detector, which makes the
// slowest of them (the damage test) run fewer cases.
const raceDetector = true
