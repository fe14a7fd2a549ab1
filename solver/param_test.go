package solver_test

import (
	"strings"
	"testing"

	"soko/solver"
)

var (
	depth = solver.Param{Name: "depth", Kind: solver.Int, Default: "50", Min: 0, Max: 10000}
	c     = solver.Param{Name: "c", Kind: solver.Real, Default: "1", Min: 0, Max: 1e6}
	on    = solver.Param{Name: "on", Kind: solver.Bool, Default: "1"}
	dl    = solver.Param{Name: "deadlocks", Kind: solver.List, Default: "freeze", Values: []string{"freeze", "2x2", "none"}}
)

func TestParamCheck(t *testing.T) {
	tests := []struct {
		p    solver.Param
		v    string
		want string // in the error; "" for no error
	}{
		{depth, "0", ""},
		{depth, "10000", ""},
		{depth, "1e3", ""},
		{depth, "1.5", "not an integer"},
		{depth, "-1", "out of range"},
		{depth, "10001", "out of range"},
		{depth, "100000000000", "out of range"},
		{depth, "1e400", "out of range"},
		{depth, "NaN", "not a decimal number"},
		{depth, "abc", "not a decimal number"},
		{depth, "1_0", "not a decimal number"},
		{depth, "+5", "not a decimal number"},
		{depth, "0x10", "not a decimal number"},
		{depth, "1e-400", "too small to tell from 0"},
		{depth, "4.9e-324", "not an integer"},
		{depth, "0e5", ""},
		{depth, "0.000", ""},
		{depth, "", "empty value"},
		{c, "0.25", ""},
		{c, "+Inf", "not a decimal number"},
		{c, "-Inf", "not a decimal number"},
		{c, ".5", ""},
		{c, "1e-400", "too small to tell from 0"},
		{c, "-0.5", "out of range"},
		{c, "1e18", "out of range"},
		{on, "0", ""},
		{on, "1", ""},
		{on, "-1", "want 0 or 1"},
		{on, "true", "want 0 or 1"},
		{on, "0.5", "want 0 or 1"},
		{dl, "freeze,2x2", ""},
		{dl, "none", ""},
		{dl, "freeze,bogus", `unknown item "bogus"`},
		{dl, "freeze,freeze", `item "freeze" given twice`},
		{dl, "freeze ,freeze", `item "freeze" given twice`},
		{dl, "none,freeze", `"none" stands alone`},
		{dl, "", "empty value"},
	}
	for _, tt := range tests {
		err := tt.p.Check(tt.v)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s=%q: %v", tt.p.Name, tt.v, err)
		case tt.want != "" && err == nil:
			t.Errorf("%s=%q accepted", tt.p.Name, tt.v)
		case tt.want != "":
			msg := err.Error()
			// The message names the parameter, the value and what it takes.
			if !strings.Contains(msg, tt.want) || !strings.Contains(msg, tt.p.Name+"=") ||
				!strings.Contains(msg, tt.v) || !strings.Contains(msg, tt.p.Accepts()) {
				t.Errorf("%s=%q: error %q", tt.p.Name, tt.v, msg)
			}
		}
	}
	if got := depth.Accepts(); got != "an integer from 0 to 10000" {
		t.Errorf("depth accepts %q", got)
	}
	if got := c.String(); got != "c=1 (real 0..1000000)" {
		t.Errorf("c listed as %q", got)
	}
}

func TestCheckParams(t *testing.T) {
	e := solver.Entry{Name: "toy", Params: []solver.Param{c, depth}}
	if err := solver.CheckParams(e, map[string]string{"c": "2", "depth": "7"}); err != nil {
		t.Fatal(err)
	}
	if err := solver.CheckParams(e, nil); err != nil {
		t.Fatal(err)
	}
	err := solver.CheckParams(e, map[string]string{"c": "2", "zzz": "1"})
	if err == nil || !strings.Contains(err.Error(), `toy takes no parameter "zzz" (it takes: c, depth)`) {
		t.Fatalf("unknown name: %v", err)
	}
	// Names are checked in sorted order: the first bad one is reported.
	err = solver.CheckParams(e, map[string]string{"depth": "-1", "c": "NaN"})
	if err == nil || !strings.HasPrefix(err.Error(), `toy: parameter c="NaN"`) {
		t.Fatalf("bad values: %v", err)
	}
}

func TestOptionsRead(t *testing.T) {
	o := solver.Options{Params: map[string]string{"depth": "7", "c": "0.5", "on": "0", "deadlocks": "2x2"}}
	if n, err := o.Int(depth); n != 7 || err != nil {
		t.Errorf("depth: %d, %v", n, err)
	}
	if x, err := o.Real(c); x != 0.5 || err != nil {
		t.Errorf("c: %g, %v", x, err)
	}
	if b, err := o.Bool(on); b || err != nil {
		t.Errorf("on: %v, %v", b, err)
	}
	if s, err := o.List(dl); s != "2x2" || err != nil {
		t.Errorf("deadlocks: %q, %v", s, err)
	}
	var none solver.Options
	if n, _ := none.Int(depth); n != 50 {
		t.Errorf("default depth %d", n)
	}
	if b, _ := none.Bool(on); !b {
		t.Error("default on is 1")
	}
	if s, _ := none.List(dl); s != "freeze" {
		t.Errorf("default deadlocks %q", s)
	}
	// A library caller that skips CheckParams still gets an error, not a
	// value out of range.
	bad := solver.Options{Params: map[string]string{"depth": "1e11", "c": "NaN"}}
	if _, err := bad.Int(depth); err == nil {
		t.Error("depth 1e11 read")
	}
	if _, err := bad.Real(c); err == nil {
		t.Error("c NaN read")
	}
	if _, err := o.Real(depth); err == nil {
		t.Error("an int parameter read as real")
	}
}

func TestRegisterRefusesUnsoundDeclarations(t *testing.T) {
	for _, p := range []solver.Param{
		{Name: "x", Kind: solver.Real, Default: "5", Min: 0, Max: 1},       // default out of range
		{Name: "x", Kind: solver.Int, Default: "0", Min: 0, Max: 1e18},     // beyond int32
		{Name: "x", Kind: solver.Int, Default: "0", Min: 0, Max: 1.5},      // fractional bound
		{Name: "x", Kind: solver.Real, Default: "0", Min: 1, Max: 0},       // empty range
		{Name: "x", Kind: solver.List, Default: "a"},                       // no values
		{Name: "x=y", Kind: solver.Bool, Default: "0"},                     // bad name
		{Name: "x", Kind: solver.Bool, Default: "2"},                       // bad default
		{Name: "x", Kind: solver.Kind(9), Default: "0", Min: 0, Max: 1e18}, // no such kind
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v registered", p)
				}
			}()
			solver.Register(solver.Entry{Name: "unsound-" + p.Name, Params: []solver.Param{p}})
		}()
	}
}

// Canonical writes one value one way, however it was typed.
func TestCanonical(t *testing.T) {
	list := solver.Param{Name: "deadlocks", Kind: solver.List, Default: "freeze", Values: []string{"freeze", "corral"}}
	for _, c := range []struct {
		p        solver.Param
		in, want string
	}{
		{depth, "50", "50"}, {depth, "5e1", "50"}, {depth, "50.0", "50"}, {depth, "050", "50"},
		{c, "0.5", "0.5"}, {c, "5e-1", "0.5"}, {c, "1.0", "1"}, {c, "1e3", "1000"}, {c, "0.1", "0.1"},
		{list, "freeze, corral", "freeze,corral"}, {list, "corral", "corral"},
	} {
		if got := c.p.Canonical(c.in); got != c.want {
			t.Errorf("%s=%s: %q, want %q", c.p.Name, c.in, got, c.want)
		}
	}
}
