package sqlstore

import (
	"database/sql"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/search"
	"github.com/dealctl/dealctl/internal/store"
)

// foldMigration is the migration that defines dealctl_search_fold as it
// is now.
const foldMigration = "migrations/postgres/0010_search_fold.sql"

// TestPostgresFoldMigrationIsSearchFoldSQL: the migration holds the
// pieces search.FoldSQL makes from the rule, each between quotes.
func TestPostgresFoldMigrationIsSearchFoldSQL(t *testing.T) {
	t.Parallel()
	migration, err := os.ReadFile(foldMigration)
	if err != nil {
		t.Fatal(err)
	}
	marks, capitals, from, to := search.FoldSQL()
	for name, piece := range map[string]string{"marks": marks, "capitals": capitals, "split": "(?=" + capitals + ")", "from": from, "to": to} {
		if !strings.Contains(string(migration), "'"+piece+"'") {
			t.Errorf("%s does not hold search.FoldSQL's %s: make it again from search.FoldSQL", foldMigration, name)
		}
	}
}

// foldWordBreaks is search.Fold with what dealctl_search_fold does
// besides: . _ / @ and : are spaces.
func foldWordBreaks(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("._/@:", r) {
			return ' '
		}
		return r
	}, search.Fold(s))
}

// TestPostgresFoldIsSearchFold: dealctl_search_fold folds as search.Fold
// (with the word breaks), letter by letter on every assigned character
// of Unicode (alone, behind a capital and an accent, and in front of a
// combining mark), and on texts in many scripts, with letters that do
// not decompose, marks typed apart and capitals to lower.
func TestPostgresFoldIsSearchFold(t *testing.T) {
	t.Parallel()
	db := openPostgresTest(t)
	var samples []string
	for r := rune(1); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs) {
			continue
		}
		c := string(r)
		samples = append(samples, c, "Ø"+c+"é", c+"\u0301X")
	}
	samples = append(samples,
		"Ørsted ØRSTED Łódź ŁÓDŹ Æsir ÆSIR Straße STRASSE ẞ Đakovo ĐAKOVO Þór Œuvre ħ Ħ ı İstanbul ŉ",
		"Société Générale, SOCIÉTÉ; naïve e\u0301te\u0301 Nguyễn NGUYỄN",
		"ΆΛΦΑ άλφα Ἀθῆναι ἈΘΗΝΑΙ ΟΔΟΣ οδός ϒ ϓ",
		"Дом ДОМ Ёлка ЁЛКА Йогурт ЙОГУРТ Ї Ґ Ѣ ѣ Ӂ",
		"한국어 日本語 ガギグ かな العربيّة עִבְרִית हिन्दी ไทย",
		"report_2023.pdf a.b@c:d/e FY2023 2.3 ＡＢＣ ⅧⅫ Ⓐ 𐐀𐐨 ǅ ǈ",
		"ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝ àáâãäåçèéêëìíîïñòóôõöùúûüýÿ",
	)
	const batch = 20000
	for start := 0; start < len(samples); start += batch {
		part := samples[start:min(start+batch, len(samples))]
		rows, err := db.read.Query("SELECT dealctl_search_fold(x) FROM unnest($1::text[]) WITH ORDINALITY AS u(x, i) ORDER BY i", part)
		if err != nil {
			t.Fatal(err)
		}
		i, wrong := 0, 0
		for rows.Next() {
			var got string
			if err := rows.Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := foldWordBreaks(part[i]); got != want && wrong < 20 {
				wrong++
				t.Errorf("dealctl_search_fold(%q %+q) = %q %+q, search.Fold says %q %+q", part[i], part[i], got, got, want, want)
			}
			i++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if i != len(part) {
			t.Fatalf("%d folds for %d texts", i, len(part))
		}
	}
}

// TestSearchFoldsEveryScript: on both stores, a word is found however
// its letters are cased and accented, in Latin letters that do not
// decompose (ø, ł, æ, ß, đ are lowered, not taken for o, l, ae, ss, d),
// in Greek and Cyrillic capitals, in a request's title and body and in
// a message. Greek and Cyrillic accents (ά, ё, й, breathings) are taken
// off on PostgreSQL only: SQLite's tokenizer takes them off Latin
// letters alone (docs/api.md, "Search").
func TestSearchFoldsEveryScript(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		d := seedSearchDeal(t, db)
		d.req["2.1"] = createSearchRequest(t, db, d, "2.1", "Ørsted wind farm in Łódź", "Æbleskiver Straße")
		d.req["2.2"] = createSearchRequest(t, db, d, "2.2", "Đakovo plant", "Ἀθῆναι office lease")
		d.req["2.3"] = createSearchRequest(t, db, d, "2.3", "Бухгалтерская отчётность", "Договор аренды")
		post(t, db, d, d.req["2.3"], d.buyer, false, "ΆΛΦΑ Ёлка ПРОЕКТ")
		for _, tc := range []struct {
			q      string
			want   []string
			pgOnly bool
		}{
			{"ørsted", []string{"2.1:title"}, false},
			{"ØRSTED", []string{"2.1:title"}, false},
			{"orsted", []string{}, false},
			{"ŁÓDŹ", []string{"2.1:title"}, false},
			{"łodz", []string{"2.1:title"}, false},
			{"ÆBLESKIVER", []string{"2.1:body"}, false},
			{"straße", []string{"2.1:body"}, false},
			{"STRAẞE", []string{"2.1:body"}, false},
			{"đakovo", []string{"2.2:title"}, false},
			{"ĐAKOVO", []string{"2.2:title"}, false},
			{"αθηναι", []string{"2.2:body"}, true},
			{"ΑΘΗΝΑΙ", []string{"2.2:body"}, true},
			{"БУХГАЛТЕРСКАЯ", []string{"2.3:title"}, false},
			{"отчетность", []string{"2.3:title"}, true},
			{"договор", []string{"2.3:body"}, false},
			{"альфа", []string{}, false},
			{"άλφα", []string{"2.3:message"}, false},
			{"елка", []string{"2.3:message"}, true},
			{"проект", []string{"2.3:message"}, false},
		} {
			if tc.pgOnly && db.Dialect() == SQLite {
				continue
			}
			if got := find(t, db, d, d.buyer, tc.q); !same(got, tc.want...) {
				t.Errorf("searching %q: %v, want %v", tc.q, got, tc.want)
			}
		}
	})
}

// TestPostgresFoldMigrationOnAnOlderDatabase: on a database made at
// version 9, whose vectors 0007's fold made, migration 0010 makes them
// again with the new one: polytonic Greek, which 0007's fold left
// accented and capital, is found in a request, a message and a file
// name by its folded spelling, as the query is folded now.
func TestPostgresFoldMigrationOnAnOlderDatabase(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	rows := slices.Clone(rowsBeforeSearch)
	for i, r := range rows {
		r = strings.Replace(r, "'Warranty claims'", "'ἈΘΗΝΑΙ warranty claims'", 1)
		r = strings.Replace(r, "'Claims register attached.'", "'Register of Ἀθῆναι claims.'", 1)
		rows[i] = strings.Replace(r, "'claims_2019.xlsx'", "'Ἀθῆναι_2019.xlsx'", 1)
	}
	runSteps(t, raw, append(schemaBefore(t, Postgres, 10), rows...))
	var before bool
	if err := raw.QueryRow("SELECT EXISTS (SELECT 1 FROM messages WHERE search_vector @@ phraseto_tsquery('english', 'αθηναι'))").Scan(&before); err != nil || before {
		t.Fatalf("the database made at version 9 finds αθηναι already (%v): the test proves nothing", err)
	}
	raw.Close()
	db := openPostgresURL(t, url)
	if applied := strings.Join(db.Migrated().Applied, ","); !strings.Contains(applied, "0010_search_fold.sql") {
		t.Fatalf("applied %q", applied)
	}
	d := searchDeal{minimalIDs: minimalIDs{deal: "d", party: "pa"}, buyer: "pb"}
	for _, q := range []string{"αθηναι", "ΑΘΗΝΑΙ", "Ἀθῆναι"} {
		if got := find(t, db, d, "pb", q); !same(got, "3.1:title", "3.1:message", "3.1:file") {
			t.Errorf("searching %q after the migration: %v", q, got)
		}
	}
}

// TestSearchThreadPhraseNewestFirst: a phrase's matches in threads come
// newest first and a page of them is the newest, among messages holding
// its words out of order too (PostgreSQL checks the phrase on them one
// by one, newest first, until the page is full); more says whether
// others matched.
func TestSearchThreadPhraseNewestFirst(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		d := seedSearchDeal(t, db)
		var ids []string
		for _, text := range []string{"Kalomi vitoru, first.", "Vitoru kalomi.", "Kalomi vitoru again.", "vitoru then kalomi", "vitoru, kalomi"} {
			ids = append(ids, post(t, db, d, d.req["1.2"], d.buyer, false, text))
		}
		for _, tc := range []struct {
			limit int
			want  []string
			more  bool
		}{
			{1, []string{ids[2]}, true},
			{2, []string{ids[2], ids[0]}, false},
			{5, []string{ids[2], ids[0]}, false},
		} {
			res := searchAs(t, db, d, d.buyer, `"kalomi vitoru"`, func(q *store.SearchQuery) { q.Requests, q.Limit = false, tc.limit })
			var got []string
			for _, h := range res.Hits {
				got = append(got, h.MessageID)
			}
			if !slices.Equal(got, tc.want) || res.More != tc.more {
				t.Errorf("limit %d: %v more %v, want %v more %v", tc.limit, got, res.More, tc.want, tc.more)
			}
		}
	})
}

// TestSearchStopWordsAlone: a query of English stop words alone finds
// nothing on PostgreSQL (they are not indexed) and fails nowhere, in
// requests or threads, alone or beside a phrase; SQLite indexes them.
func TestSearchStopWordsAlone(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		d := seedSearchDeal(t, db)
		post(t, db, d, d.req["1.2"], d.buyer, false, "The data room of the deal.")
		if got := find(t, db, d, d.buyer, "the"); (db.Dialect() == Postgres) != (len(got) == 0) {
			t.Errorf("searching the: %v", got)
		}
		if got := find(t, db, d, d.buyer, `the "data room"`); !same(got, "1.3:message", "1.2:message") && !same(got, "1.2:message", "1.3:message") {
			t.Errorf(`searching the "data room": %v`, got)
		}
	})
}
