package jsonl

import "encoding/json"

// Kind is the soko command that wrote a record, as told by the field only
// that command's records have.
type Kind int

const (
	Unknown  Kind = iota // none of the fields below: not a record of soko's, or a partial one
	Bench                // soko bench: "key"
	Optimize             // soko optimize: "metric"
	Solve                // soko solve --json: "algo"
)

// KindOf tells which command wrote the record on line by the first of
// "key", "metric" and "algo" that it has as a string that is not empty.
// It says nothing of whether the record is whole: each reader checks the
// fields it needs, and names the kind of a line it refuses.
func KindOf(line []byte) Kind {
	var r struct {
		Key    string `json:"key"`
		Metric string `json:"metric"`
		Algo   string `json:"algo"`
	}
	json.Unmarshal(line, &r) // a field of another type is left empty; the rest is read
	switch {
	case r.Key != "":
		return Bench
	case r.Metric != "":
		return Optimize
	case r.Algo != "":
		return Solve
	}
	return Unknown
}
