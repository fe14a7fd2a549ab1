package english

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 boxes"}, {1, "1 box"}, {2, "2 boxes"}, {-1, "-1 box"}, {155, "155 boxes"}} {
		if got := Count(tc.n, "box", "boxes"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Count(int64(1), "run", "runs"); got != "1 run" {
		t.Errorf("Count(int64(1)) = %q", got)
	}
}
