package jsonscan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/fixtures"
)

// The scanner is held to encoding/json: on valid JSON it must find the same
// members, in the same order, with the same raw values, and decode strings
// to the same text; on anything else it must return an error or stop
// without panicking.

// oracleMember is a member as encoding/json reads it.
type oracleMember struct {
	key string
	val []byte
}

// oracle reads the members (for an object) or elements (for an array) of
// b with encoding/json, or reports that b is neither.
func oracle(b []byte) (members []oracleMember, isObject, isArray bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, false, false
	}
	switch tok {
	case json.Delim('{'):
		isObject = true
	case json.Delim('['):
		isArray = true
	default:
		return nil, false, false
	}
	for dec.More() {
		var m oracleMember
		if isObject {
			k, err := dec.Token()
			if err != nil {
				return nil, false, false
			}
			m.key = k.(string)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false, false
		}
		m.val = raw
		members = append(members, m)
	}
	return members, isObject, isArray
}

// agree checks the scanner against the oracle on b, which must be valid
// JSON, and descends into every container value.
func agree(b []byte) error {
	want, isObject, isArray := oracle(b)
	var got []oracleMember
	var err error
	switch {
	case isObject:
		err = Members(b, func(key, val []byte) {
			got = append(got, oracleMember{key: String([]byte(`"` + string(key) + `"`)), val: val})
		})
		if eerr := Elements(b, func([]byte) {}); eerr == nil {
			return errors.New("Elements read an object as an array")
		}
	case isArray:
		err = Elements(b, func(el []byte) { got = append(got, oracleMember{val: el}) })
		if merr := Members(b, func(_, _ []byte) {}); merr == nil {
			return errors.New("Members read an array as an object")
		}
	default:
		if merr := Members(b, func(_, _ []byte) {}); merr == nil {
			return fmt.Errorf("Members read %.40q as an object", b)
		}
		// A scalar: a string must decode as encoding/json decodes it.
		var s string
		if json.Unmarshal(b, &s) == nil {
			if g := String(bytes.TrimSpace(b)); g != s {
				return fmt.Errorf("String(%.60q) = %.60q, encoding/json: %.60q", b, g, s)
			}
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("scanner refused valid JSON %.60q: %v", b, err)
	}
	if len(got) != len(want) {
		return fmt.Errorf("%.60q: scanner found %d members, encoding/json %d", b, len(got), len(want))
	}
	for i := range want {
		if got[i].key != want[i].key {
			return fmt.Errorf("%.60q: member %d key %q, encoding/json %q", b, i, got[i].key, want[i].key)
		}
		if !bytes.Equal(got[i].val, want[i].val) {
			return fmt.Errorf("%.60q: member %d value %.60q, encoding/json %.60q", b, i, got[i].val, want[i].val)
		}
		if err := agree(got[i].val); err != nil {
			return err
		}
	}
	return nil
}

func TestAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range validCases {
		if !json.Valid([]byte(in)) {
			t.Fatalf("test case is not valid JSON: %q", in)
		}
		if err := agree([]byte(in)); err != nil {
			t.Error(err)
		}
	}
}

var validCases = []string{
	`{}`, ` { } `, `[]`, "\t[ ]\r\n",
	`{"a":1}`,
	`{"session_id":"s1","cwd":"/tmp/a b","tool_input":{"command":"ls -la"},"stop_hook_active":true}`,
	` {"a" : "x" , "b":[1, 2 ,{"c":null}] , "d":-1.5e+3 ,"e":false}`,
	`{"quote":"say \"hi\"","bs":"C:\\dir\\","bs2":"\\\\","esc":"a\\\"b"}`,
	`{"brackets":"}]{[","nested":{"s":"]}"},"arr":["{","[",""]}`,
	`{"u":"\u00e9\u4e2d\ud83d\ude00","ctl":"\n\t\b\f\r\/"}`,
	`{"lone":"\ud800","lone2":"\udc00x"}`,
	`{"dup":1,"dup":2}`,
	`{"k\"ey":1,"k\\":2,"\u0041":3}`,
	`{"deep":[[[[{"a":[{}]}]]]]}`,
	"{\"utf8\":\"caf\xc3\xa9 \xe2\x9c\x93\"}",
	`[1,"two",{"three":3},[4],null,true,false,-0.5]`,
	`"just a string"`, `"esc \" \\ \u0041"`, `42`, `null`,
}

// Invalid JSON the scanner must refuse (it may accept other invalid JSON:
// values are located, not validated, but an object's own syntax is
// checked).
func TestRefusesBrokenObjects(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `}`, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{a:1}`,
		`{"a":1}x`, `{"a":1}{}`, `{"a":"unterminated}`, `{"a":{"b":1}`, `{"a":[1,2}`,
		`{"a\":1}`, `{"a":"x\"}`, `{"a":1,"b"`, `[1,2`, `[1 2]`, `[,]`, `[1]x`, `[1],`,
		// A record cut short, as a transcript's last line while Claude Code
		// is still writing it.
		`{"type":"assistant","message":{"content":[{"type":"text","text":"half`,
	} {
		err := Members([]byte(in), func(_, _ []byte) {})
		if strings.HasPrefix(in, "[") {
			err = Elements([]byte(in), func([]byte) {})
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err = %v, want ErrSyntax", in, err)
		}
	}
}

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:             "plain",
		`"a\"b"`:              `a"b`,
		`"\u00e9\n"`:          "é\n",
		`"\ud83d\ude00"`:      "😀",
		"\"bad \xff utf8\"":   "bad \ufffd utf8",
		`"lone \ud800"`:       "lone \ufffd",
		`42`:                  "",
		`null`:                "",
		`{"a":"b"}`:           "",
		`"`:                   "",
		``:                    "",
		`"C:\\Users\\me\\x"`:  `C:\Users\me\x`,
		`"tab\there"`:         "tab\there",
		`"slash \/ ok"`:       "slash / ok",
		`"emoji 😀 raw"`:       "emoji 😀 raw",
		`"nul \u0000 inside"`: "nul \x00 inside",
	} {
		if got := String([]byte(in)); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRealTranscripts checks every line of the real Claude Code transcripts
// against encoding/json: records carry whole files, escaped code and
// non-ASCII text in tool results, which is what the scanner skips over.
func TestRealTranscripts(t *testing.T) {
	files := fixtures.SharedOrSkip(t)
	var lines int
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 256<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Bytes()
			if !json.Valid(line) {
				continue
			}
			lines++
			if err := agree(line); err != nil {
				t.Errorf("%s line %d: %v", path, n, err)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if lines == 0 {
		t.Fatal("no valid JSON lines in the real transcripts")
	}
	t.Logf("%d lines of %d transcripts agree with encoding/json", lines, len(files))
}

// FuzzScan holds the scanner to encoding/json on valid input and asks only
// that it return on the rest.
func FuzzScan(f *testing.F) {
	for _, s := range validCases {
		f.Add(s)
	}
	f.Add(`{"a":"x\\\"}`)
	f.Add(`{"a":[{"b":"]"}]`)
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if json.Valid(b) {
			if err := agree(b); err != nil {
				t.Fatal(err)
			}
			return
		}
		// Invalid input: any answer but a panic or a hang. Values handed
		// out must lie within the input.
		Members(b, func(key, val []byte) {
			if !bytes.Contains(b, key) || !bytes.Contains(b, val) {
				t.Fatalf("member %q:%q not in input", key, val)
			}
			String(val)
		})
		Elements(b, func(el []byte) { String(el) })
		String(b)
	})
}
