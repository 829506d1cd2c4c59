package domain

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCompareNumbers(t *testing.T) {
	ordered := []string{"1", "1.1", "1.2", "1.10", "2", "2.1", "2.1.1", "2.9", "2.10", "2.10a", "2.10b", "10", "A", "A.1", "B", "b1"}
	for i := range ordered {
		for j := range ordered {
			got := CompareNumbers(ordered[i], ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("CompareNumbers(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	shuffled := slices.Clone(ordered)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	slices.SortFunc(shuffled, CompareNumbers)
	if !slices.Equal(shuffled, ordered) {
		t.Errorf("sorted = %v, want %v", shuffled, ordered)
	}
}

func TestCompareNumbersLeadingZeros(t *testing.T) {
	if CompareNumbers("01", "1") <= 0 || CompareNumbers("1", "01") >= 0 {
		t.Error(`"1" must sort before "01" so that the order is total`)
	}
	if CompareNumbers("2.01", "2.2") >= 0 {
		t.Error(`"2.01" (one) must sort before "2.2" (two)`)
	}
}

func TestNextNumber(t *testing.T) {
	cases := []struct {
		parent   string
		siblings []string
		want     string
	}{
		{"", nil, "1"},
		{"", []string{"1", "2", "3"}, "4"},
		{"", []string{"1", "7", "A"}, "8"},
		{"2", nil, "2.1"},
		{"2", []string{"2.1"}, "2.2"},
		{"2", []string{"2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9"}, "2.10"},
		{"2", []string{"2.3", "2.x"}, "2.4"},
		{"4.1", []string{"4.1.2"}, "4.1.3"},
		{"", []string{"3", "9223372036854775807"}, "4"},
	}
	for _, c := range cases {
		if got := NextNumber(c.parent, c.siblings); got != c.want {
			t.Errorf("NextNumber(%q, %v) = %q, want %q", c.parent, c.siblings, got, c.want)
		}
	}
}

// row is a test Row.
type row struct{ id, parent, number string }

func (r row) RowID() string       { return r.id }
func (r row) RowParentID() string { return r.parent }
func (r row) RowNumber() string   { return r.number }

func TestTreeOrder(t *testing.T) {
	rows := []row{
		{"s2", "", "2"}, {"r210", "s2", "2.10"}, {"r29", "s2", "2.9"}, {"s1", "", "1"},
		{"r11", "s1", "1.1"}, {"orphan", "gone", "0.5"}, {"top3", "", "3"}, {"s21", "s2", "2.1"}, {"r211", "s21", "2.1.1"},
	}
	var got []string
	for _, i := range TreeOrder(rows) {
		got = append(got, rows[i].number)
	}
	want := []string{"0.5", "1", "1.1", "2", "2.1", "2.1.1", "2.9", "2.10", "3"}
	if !slices.Equal(got, want) {
		t.Errorf("TreeOrder = %v, want %v", got, want)
	}
}

func TestTreeOrderKeepsCycles(t *testing.T) {
	rows := []row{{"a", "b", "1"}, {"b", "a", "2"}, {"c", "", "3"}}
	if got := TreeOrder(rows); len(got) != 3 {
		t.Fatalf("TreeOrder dropped rows in a cycle: %v", got)
	}
}

func FuzzCompareNumbers(f *testing.F) {
	for _, s := range []string{"1", "2.10", "2.9", "A.1", "01", "", ".", "1..2", "9999999999999999999999"} {
		f.Add(s, "2.3")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := CompareNumbers(a, b), CompareNumbers(b, a)
		if ab != -ba {
			t.Fatalf("not antisymmetric: (%q,%q)=%d, reversed %d", a, b, ab, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("CompareNumbers(%q, %q) = %d: equal only for equal strings", a, b, ab)
		}
		if CompareNumbers(a, a) != 0 {
			t.Fatalf("CompareNumbers(%q, %q) != 0", a, a)
		}
	})
}

func FuzzNextNumber(f *testing.F) {
	f.Add("2", "2.9")
	f.Add("", "A")
	f.Fuzz(func(t *testing.T, parent, sibling string) {
		next := NextNumber(parent, []string{sibling})
		if next == sibling {
			t.Fatalf("NextNumber(%q, [%q]) repeats the sibling", parent, sibling)
		}
		if parent != "" && len(next) <= len(parent) {
			t.Fatalf("NextNumber(%q, …) = %q does not extend the parent", parent, next)
		}
	})
}

// TestNumberOrderRomanAndLettered: Roman sections count I, II, … IX, X
// in a list that numbers them so; lettered ones A … Z, AA; a lettered
// list's I, C and D stay letters.
func TestNumberOrderRomanAndLettered(t *testing.T) {
	for _, ordered := range [][]string{
		{"I", "I.1", "I.2", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "IX.1", "X", "XI", "XIV", "XIX", "XX", "XL"},
		{"i", "ii", "iii", "iv", "v", "ix", "x"},
		{"1", "2", "I", "II", "III"},
		{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "V", "X", "Z", "AA", "AB", "AZ", "BA"},
		{"A.1", "A.2", "A.10", "B.1", "C", "C.1", "D"},
		{"C", "D", "L", "M"},
	} {
		shuffled := slices.Clone(ordered)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		slices.SortFunc(shuffled, NewNumberOrder(ordered).Compare)
		if !slices.Equal(shuffled, ordered) {
			t.Errorf("sorted = %v, want %v", shuffled, ordered)
		}
	}
	if CompareNumbers("Z", "AA") >= 0 || CompareNumbers("AZ", "BA") >= 0 {
		t.Error("lettered numbering: Z before AA, AZ before BA")
	}
}

// TestTreeOrderRomanSections: the list order the server gives a
// counsel's Roman sections.
func TestTreeOrderRomanSections(t *testing.T) {
	var rows []row
	want := []string{"I", "I.1", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "IX.1", "IX.2", "X", "X.1"}
	for _, n := range want {
		parent := ParentNumber(n)
		rows = append(rows, row{id: n, parent: parent, number: n})
	}
	rand.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var got []string
	for _, i := range TreeOrder(rows) {
		got = append(got, rows[i].number)
	}
	if !slices.Equal(got, want) {
		t.Errorf("TreeOrder = %v, want %v", got, want)
	}
}

// FuzzNumberOrder: the order of any three numbers, read as one list, is
// total: antisymmetric, equal only for equal strings, and transitive.
func FuzzNumberOrder(f *testing.F) {
	f.Add("IX", "X", "C")
	f.Add("Z", "AA", "Z1")
	f.Add("XC", "L", "C")
	f.Add("2.10", "II.1", "b1")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		o := NewNumberOrder([]string{a, b, c})
		xs := []string{a, b, c}
		for _, x := range xs {
			for _, y := range xs {
				if o.Compare(x, y) != -o.Compare(y, x) || (o.Compare(x, y) == 0) != (x == y) {
					t.Fatalf("Compare(%q, %q) = %d, reversed %d", x, y, o.Compare(x, y), o.Compare(y, x))
				}
				for _, z := range xs {
					if o.Compare(x, y) < 0 && o.Compare(y, z) < 0 && o.Compare(x, z) >= 0 {
						t.Fatalf("not transitive: %q < %q < %q but not %q < %q", x, y, z, x, z)
					}
				}
			}
		}
	})
}
