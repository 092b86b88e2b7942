//go:build !race

package pgserver

// raceDetector: see race_on.go.
const raceDetector = false
