package types

import (
	"errors"
	"testing"
	"time"

	"cdcdb/pgerror"
)

// TestDateToTimestampRange: a date past the last timestamp (294276-12-31)
// made a timestamp or a timestamptz is 22008 "date out of range for
// timestamp", as PostgreSQL's date2timestamp says; the last day itself
// converts.
func TestDateToTimestampRange(t *testing.T) {
	last := time.Date(294276, 12, 31, 0, 0, 0, 0, time.UTC)
	past := time.Date(294277, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, to := range []OID{Timestamp, Timestamptz} {
		if _, err := CastWith(last, Of(Date), Of(to), true, Input{Loc: time.UTC}); err != nil {
			t.Errorf("294276-12-31::%d: %v", to, err)
		}
		_, err := CastWith(past, Of(Date), Of(to), true, Input{Loc: time.UTC})
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.DatetimeFieldOverflow || pe.Message != "date out of range for timestamp" {
			t.Errorf("294277-01-01::%d: err %v, want 22008 date out of range for timestamp", to, err)
		}
	}
}
