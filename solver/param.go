package solver

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Kind is the type of a solver parameter's value.
type Kind int8

// The kinds of parameter values. Every number is finite: NaN and ±Inf are
// refused whatever the range.
const (
	Int  Kind = iota // a whole number in [Min, Max], written like 50 or 1e3
	Real             // a number in [Min, Max]
	Bool             // 0 (off) or 1 (on)
	List             // comma-separated items from Values, such as "freeze,2x2"
)

// An Int parameter's range lies within int32's, so that Options.Int's
// result fits an int everywhere.
const (
	minInt = math.MinInt32
	maxInt = math.MaxInt32
)

// Param declares one parameter a solver reads from Options.Params: its
// name, type, default and the values it accepts. A solver reads it with
// Options.Int, Real, Bool or List, and front ends check values with
// CheckParams before any run, so a bad value is a usage error naming the
// parameter and what it accepts.
type Param struct {
	Name     string
	Kind     Kind
	Default  string   // the value used when the parameter is not given
	Min, Max float64  // Int and Real: the accepted range, both ends included
	Values   []string // List: the accepted items
	Doc      string   // what it does, one line
}

// Accepts describes the values p takes: "an integer from 0 to 10000".
func (p Param) Accepts() string {
	switch p.Kind {
	case Int:
		return "an integer from " + num(p.Min) + " to " + num(p.Max)
	case Real:
		return "a number from " + num(p.Min) + " to " + num(p.Max)
	case Bool:
		return "0 or 1"
	case List:
		return "a comma-separated list of " + strings.Join(p.Values, ", ")
	}
	return fmt.Sprintf("kind(%d)", p.Kind)
}

// KindName is the kind's name for listings: "int", "real", "bool", "list".
func (p Param) KindName() string {
	switch p.Kind {
	case Int:
		return "int"
	case Real:
		return "real"
	case Bool:
		return "bool"
	case List:
		return "list"
	}
	return fmt.Sprintf("kind(%d)", p.Kind)
}

// Range is the kind and the accepted values in short, for listings:
// "int 0..10000", "real 0..1000", "bool", "list of freeze,2x2".
func (p Param) Range() string {
	switch p.Kind {
	case Int, Real:
		return p.KindName() + " " + num(p.Min) + ".." + num(p.Max)
	case List:
		return "list of " + strings.Join(p.Values, ",")
	}
	return p.KindName()
}

// String is the parameter as listings show it: "depth=50 (int 0..10000)".
func (p Param) String() string {
	return p.Name + "=" + p.Default + " (" + p.Range() + ")"
}

// decimal is the syntax of a number value: digits with an optional point,
// sign and exponent, such as 200, -1.5, 0.25 or 1e3 (no hexadecimal, no
// underscores, no plus sign).
var decimal = regexp.MustCompile(`^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

// IsDecimal reports whether s is written as a number value is: plain
// decimal digits with an optional sign, point and exponent. The soko
// command holds its number flags to the same syntax.
func IsDecimal(s string) bool { return decimal.MatchString(s) }

// ParseDecimal reads a number written as IsDecimal says, as every number
// of a parameter and of the soko command's flags is. The result is finite,
// and 0 only where the text is: a value too small to tell from 0 is
// refused rather than read as 0, which often means "no limit". The error
// says why in a few words ("not a decimal number").
func ParseDecimal(s string) (float64, error) {
	if !IsDecimal(s) {
		return 0, errors.New("not a decimal number")
	}
	x, err := strconv.ParseFloat(s, 64)
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	switch {
	case x == 0 && strings.ContainsAny(mantissa, "123456789"):
		return 0, ErrNearZero
	case errors.Is(err, strconv.ErrRange): // beyond float64, so beyond any range
		return 0, errors.New("out of range")
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, errors.New("not a number")
	}
	return x, nil
}

// ErrNearZero is ParseDecimal's error for a number that is not 0 but
// too small to tell from it.
var ErrNearZero = errors.New("too small to tell from 0")

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Check reports whether v is a value p accepts, with an error naming the
// parameter, the value and what it accepts.
func (p Param) Check(v string) error {
	_, err := p.parse(v)
	return err
}

// Canonical returns v, a value p accepts, as the one text of its value: a
// number as its shortest decimal without an exponent (1.0, 1e0 and 1 are
// 1), a list's items without blanks; so that runs keyed by their
// parameters (soko bench's) are one run however the value was typed.
func (p Param) Canonical(v string) string {
	switch p.Kind {
	case Int, Real:
		if x, err := p.parse(v); err == nil {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
	case List:
		items := strings.Split(v, ",")
		for i := range items {
			items[i] = strings.TrimSpace(items[i])
		}
		return strings.Join(items, ",")
	}
	return v
}

// parse reads v: the number for Int, Real and Bool (0 or 1), 0 for List.
func (p Param) parse(v string) (float64, error) {
	bad := func(why string) error {
		if why != "" {
			why += "; "
		}
		return fmt.Errorf("parameter %s=%q: %swant %s", p.Name, v, why, p.Accepts())
	}
	if v == "" {
		return 0, bad("empty value")
	}
	switch p.Kind {
	case Bool:
		switch v {
		case "0":
			return 0, nil
		case "1":
			return 1, nil
		}
		return 0, bad("")
	case List:
		items := strings.Split(v, ",")
		for i := range items {
			items[i] = strings.TrimSpace(items[i])
		}
		for i, item := range items {
			switch {
			case !slices.Contains(p.Values, item):
				return 0, bad(fmt.Sprintf("unknown item %q", item))
			case slices.Contains(items[:i], item):
				return 0, bad(fmt.Sprintf("item %q given twice", item))
			case len(items) > 1 && (item == "all" || item == "none"):
				return 0, bad(fmt.Sprintf("%q stands alone", item))
			}
		}
		return 0, nil
	}
	x, err := ParseDecimal(v)
	switch {
	case err != nil:
		return 0, bad(err.Error())
	case p.Kind == Int && x != math.Trunc(x):
		return 0, bad("not an integer")
	case x < p.Min || x > p.Max:
		return 0, bad("out of range")
	}
	return x, nil
}

// validate panics when p is not a sound declaration: a programming error in
// a registration.
func (p Param) validate(solver string) {
	fail := func(why string) {
		panic(fmt.Sprintf("solver: %s: parameter %s: %s", solver, p.Name, why))
	}
	if p.Name == "" || strings.ContainsAny(p.Name, "=:, ") {
		fail("bad name")
	}
	switch p.Kind {
	case Int, Real:
		if math.IsNaN(p.Min) || math.IsNaN(p.Max) || math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) || p.Min > p.Max {
			fail("bad range")
		}
		if p.Kind == Int && (p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max) || p.Min < minInt || p.Max > maxInt) {
			fail("bad integer range")
		}
	case Bool:
	case List:
		if len(p.Values) == 0 {
			fail("no values")
		}
	default:
		fail("unknown kind")
	}
	if err := p.Check(p.Default); err != nil {
		fail("default: " + err.Error())
	}
}

// Param returns the declaration of the parameter name.
func (e Entry) Param(name string) (Param, bool) {
	for _, p := range e.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Takes reports whether the solver reads parameter name.
func (e Entry) Takes(name string) bool {
	_, ok := e.Param(name)
	return ok
}

// ParamNames returns the names of the solver's parameters, for messages.
func (e Entry) ParamNames() string {
	if len(e.Params) == 0 {
		return "none"
	}
	names := make([]string, len(e.Params))
	for i, p := range e.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// CheckParams checks parameters for solver e before a run: every name must
// be one e takes and every value one its declaration accepts. The error
// names the solver, the parameter, the value and what would be accepted.
// Names are checked in sorted order, so the error is the same every time.
func CheckParams(e Entry, params map[string]string) error {
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, ok := e.Param(name)
		if !ok {
			return fmt.Errorf("%s takes no parameter %q (it takes: %s)", e.Name, name, e.ParamNames())
		}
		if err := p.Check(params[name]); err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
	}
	return nil
}

// value returns the text of parameter p in o, or its default.
func (o Options) value(p Param) string {
	if v, ok := o.Params[p.Name]; ok {
		return v
	}
	return p.Default
}

// read parses parameter p of kind k from o, checking its range.
func (o Options) read(p Param, k Kind) (float64, error) {
	if p.Kind != k {
		return 0, fmt.Errorf("parameter %s is %s, not %s", p.Name, p.KindName(), Param{Kind: k}.KindName())
	}
	return p.parse(o.value(p))
}

// Int returns integer parameter p, or its default when it is not set. A
// value p does not accept is an error naming it.
func (o Options) Int(p Param) (int, error) {
	x, err := o.read(p, Int)
	return int(x), err
}

// Real returns real parameter p, or its default when it is not set. A
// value p does not accept is an error naming it.
func (o Options) Real(p Param) (float64, error) {
	return o.read(p, Real)
}

// Bool returns switch p, or its default when it is not set. A value other
// than 0 or 1 is an error naming it.
func (o Options) Bool(p Param) (bool, error) {
	x, err := o.read(p, Bool)
	return x != 0, err
}

// List returns list parameter p as given, or its default when it is not
// set. An item outside p.Values is an error naming it.
func (o Options) List(p Param) (string, error) {
	if _, err := o.read(p, List); err != nil {
		return "", err
	}
	return o.value(p), nil
}
