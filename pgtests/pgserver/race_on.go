//go:build race

package pgserver

// raceDetector says this test binary was built with -race; Build then
// builds cdcdb with it too, so that the end-to-end tests look for data
// races in the server they drive, not only in themselves.
const raceDetector = true
