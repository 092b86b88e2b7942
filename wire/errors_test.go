package wire

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"cdcdb/pgerror"
)

// TestClientError: what a client is sent for what a Session call returned.
func TestClientError(t *testing.T) {
	own := pgerror.New(pgerror.DivisionByZero, "division by zero").WithPosition(8)
	tests := []struct {
		err           error
		code, message string
	}{
		{fmt.Errorf("wrapped: %w", own), pgerror.DivisionByZero, "division by zero"},
		{context.Canceled, pgerror.QueryCanceled, "canceling statement due to user request"},
		{fmt.Errorf("scan: %w", context.DeadlineExceeded), pgerror.QueryCanceled, "canceling statement due to statement timeout"},
		{errors.New("disk on fire"), pgerror.InternalError, "disk on fire"},
	}
	for _, tt := range tests {
		got := ClientError(tt.err)
		if got.Code != tt.code || got.Message != tt.message {
			t.Errorf("ClientError(%v) = %s %q, want %s %q", tt.err, got.Code, got.Message, tt.code, tt.message)
		}
	}
	if got := ClientError(own); got != own {
		t.Errorf("a *pgerror.Error must pass through untouched, got %+v", got)
	}
}
