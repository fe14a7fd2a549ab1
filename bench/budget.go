package bench

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Budget is the limit of one run. It is the part of solver.Budget that names
// a benchmark's budget axis; the memory limit is a property of the machine
// and is recorded beside it (Record.MemoryLimit), not in the key.
type Budget struct {
	Time       time.Duration `json:"-"`
	Nodes      int64         `json:"nodes,omitempty"`
	Iterations int64         `json:"iterations,omitempty"`
}

// budgetJSON is Budget on disk, with the time in seconds.
type budgetJSON struct {
	TimeS      float64 `json:"time_s,omitempty"`
	Nodes      int64   `json:"nodes,omitempty"`
	Iterations int64   `json:"iterations,omitempty"`
}

// MarshalJSON writes the time limit in seconds.
func (b Budget) MarshalJSON() ([]byte, error) {
	return json.Marshal(budgetJSON{b.Time.Seconds(), b.Nodes, b.Iterations})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (b *Budget) UnmarshalJSON(data []byte) error {
	var j budgetJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Budget{Time: time.Duration(j.TimeS*1e9 + 0.5), Nodes: j.Nodes, Iterations: j.Iterations}
	return nil
}

// String is the budget's label in tables and keys: "i=100", "n=5000",
// "t=1s", or several joined by commas ("i=100,t=10s"); "none" for no limit.
func (b Budget) String() string { return b.Format("=", ",") }

// Format writes the budget as String does with eq between a limit's
// letter and its value and sep between limits: Format("", "+") is
// "i100+t10s", for names that may hold neither '=' nor ','.
func (b Budget) Format(eq, sep string) string {
	var parts []string
	if b.Iterations > 0 {
		parts = append(parts, "i"+eq+strconv.FormatInt(b.Iterations, 10))
	}
	if b.Nodes > 0 {
		parts = append(parts, "n"+eq+strconv.FormatInt(b.Nodes, 10))
	}
	if b.Time > 0 {
		parts = append(parts, "t"+eq+b.Time.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, sep)
}

// Compare orders budgets by iterations, then nodes, then time, a limit of
// 0 (none) above every other: the largest budget is the one that limits
// least.
func (b Budget) Compare(c Budget) int {
	switch {
	case b.Iterations != c.Iterations:
		return compareLimit(b.Iterations, c.Iterations)
	case b.Nodes != c.Nodes:
		return compareLimit(b.Nodes, c.Nodes)
	}
	return compareLimit(b.Time, c.Time)
}

// compareLimit orders two limits, 0 (none) above every other.
func compareLimit[T int64 | time.Duration](a, b T) int {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	case b == 0:
		return -1
	}
	return cmp.Compare(a, b)
}
