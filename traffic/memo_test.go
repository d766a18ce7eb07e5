package traffic

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// decodeAll builds the list of one request whose messages are texts.
func decodeAll(t *testing.T, m *Memo, texts ...string) ([]Message, int) {
	t.Helper()
	decoded := 0
	l := m.List()
	for i, s := range texts {
		err := l.Add(i, []byte(s), func() (Message, error) {
			decoded++
			return Message{Role: RoleUser, Path: fmt.Sprint(i), Blocks: []Block{{Type: BlockText, Text: s}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return l.Messages(), decoded
}

func texts(ms []Message) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Blocks[0].Text)
	}
	return strings.Join(out, " ")
}

// A growing conversation decodes each message once and its lists share
// memory; a branch, a prefix and an append by a holder leave the others as
// they were.
func TestMemoLists(t *testing.T) {
	m := NewMemo()
	a, n := decodeAll(t, m, "a")
	ab, n2 := decodeAll(t, m, "a", "b")
	abc, n3 := decodeAll(t, m, "a", "b", "c")
	if n+n2+n3 != 3 {
		t.Errorf("decoded %d messages for 3 distinct ones", n+n2+n3)
	}
	// Growing one message at a time, the lists share their memory: the
	// backing array is reallocated only when it doubles.
	backings := map[*Message]bool{}
	var grow []string
	for i := range 64 {
		grow = append(grow, fmt.Sprint("g", i))
		l, _ := decodeAll(t, m, grow...)
		backings[&l[0]] = true
	}
	if len(backings) > 8 {
		t.Errorf("64 lists, each extending the last, use %d arrays; want at most 8", len(backings))
	}
	_ = ab
	ax, _ := decodeAll(t, m, "a", "x") // a branch
	abcd, _ := decodeAll(t, m, "a", "x", "y")
	pre, _ := decodeAll(t, m, "a") // a prefix of the last
	same, _ := decodeAll(t, m, "a", "x", "y")
	grown := append(same, Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: "z"}}}) // a holder appends
	next, _ := decodeAll(t, m, "a", "x", "y", "w")
	for _, c := range []struct {
		got  []Message
		want string
	}{{a, "a"}, {ab, "a b"}, {abc, "a b c"}, {ax, "a x"}, {abcd, "a x y"}, {pre, "a"}, {same, "a x y"}, {grown, "a x y z"}, {next, "a x y w"}} {
		if got := texts(c.got); got != c.want || len(c.got) != cap(c.got) && &c.got[0] != &grown[0] {
			t.Errorf("list %q, want %q (len %d, cap %d)", got, c.want, len(c.got), cap(c.got))
		}
	}
	if empty, _ := decodeAll(t, m); empty == nil || len(empty) != 0 {
		t.Errorf("an empty request's list is %#v, want empty and not nil", empty)
	}
	if l, _ := decodeAll(t, nil, "a", "b"); texts(l) != "a b" {
		t.Errorf("without a memo: %q", texts(l))
	}
}

// Lists built at once from several goroutines (the recorder decodes calls
// concurrently), on two wires' memos made as they are asked for, each get
// their own messages (go test -race).
func TestMemoConcurrent(t *testing.T) {
	m := NewMemo()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wire := m.For([]Wire{WireAnthropic, WireOpenAI}[g%2])
			for n := 1; n < 40; n++ {
				msgs := make([]string, n)
				for i := range msgs {
					msgs[i] = fmt.Sprintf("m%d", i%(g+2))
				}
				var got []Message
				if g%4 < 2 {
					got, _ = decodeAll(t, wire, msgs...)
				} else {
					var err error
					got, err = wire.DecodeMessages(json.RawMessage(`["`+strings.Join(msgs, `","`)+`"]`), func(i int, item json.RawMessage) (Message, error) {
						text, _ := strconv.Unquote(string(item))
						return Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: text}}}, nil
					})
					if err != nil {
						t.Error(err)
						return
					}
				}
				if texts(got) != strings.Join(msgs, " ") {
					t.Errorf("goroutine %d: %q, want %q", g, texts(got), strings.Join(msgs, " "))
					return
				}
			}
		}()
	}
	wg.Wait()
}

// An eval harness sends only new messages: the memo keeps no more than
// memoMaxSize of them, and still hands back what it holds.
func TestMemoBoundedBySize(t *testing.T) {
	m := NewMemo()
	text := strings.Repeat("x", 64<<10)
	for i := range 2 * memoMaxSize / (64 << 10) {
		decodeAll(t, m, fmt.Sprint(i)+text)
		if m.size > memoMaxSize+2*len(text)+16 {
			t.Fatalf("after %d requests the memo holds %d bytes, more than %d", i+1, m.size, memoMaxSize)
		}
	}
	last := fmt.Sprint(2*memoMaxSize/(64<<10)-1) + text
	if _, decoded := decodeAll(t, m, last); decoded != 0 {
		t.Errorf("the latest message was decoded again (%d), not remembered", decoded)
	}
}

// A list given the array its items come from knows the items it repeats,
// byte for byte, from the list before it; any other array is read whole.
func TestMemoListArray(t *testing.T) {
	m := NewMemo()
	read := func(array string, items ...string) (int, int) {
		t.Helper()
		l := m.List()
		n, end := l.Array([]byte(array))
		for i := n; i < len(items); i++ {
			if err := l.Add(i, []byte(items[i]), func() (Message, error) {
				return Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: items[i]}}}, nil
			}); err != nil {
				t.Fatal(err)
			}
			l.ReadTo(strings.Index(array, items[i]) + len(items[i]))
		}
		if got := texts(l.Messages()); got != strings.Join(items, " ") {
			t.Fatalf("%s: list %q", array, got)
		}
		return n, end
	}
	for _, c := range []struct {
		array  string
		items  []string
		n, end int
	}{
		{`["a"]`, []string{`"a"`}, 0, 0},
		{`["a","b"]`, []string{`"a"`, `"b"`}, 1, 4},
		{`["a","b", "c"]`, []string{`"a"`, `"b"`, `"c"`}, 2, 8},
		{`["a","b", "c","d"]`, []string{`"a"`, `"b"`, `"c"`, `"d"`}, 3, 13},
		// Its items again with other bytes between them: read whole, and
		// the last list stays the one to extend.
		{`["a", "b"]`, []string{`"a"`, `"b"`}, 0, 0},
		{`["a","b", "c","d","e"]`, []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`}, 4, 17},
		{`["x"]`, []string{`"x"`}, 0, 0}, // a branch
		{`["x","y"]`, []string{`"x"`, `"y"`}, 1, 4},
	} {
		if n, end := read(c.array, c.items...); n != c.n || end != c.end {
			t.Errorf("%s: Array gives %d items to %d, want %d to %d", c.array, n, end, c.n, c.end)
		}
	}
	if n, end := (&List{}).Array([]byte(`["a"]`)); n != 0 || end != 0 {
		t.Errorf("without a memo: %d, %d", n, end)
	}
}

// An eval harness's prompts, one message each, are decoded alone: the
// memo keeps none of them, and a conversation that grows from one is
// decoded as it would be anyway, sharing its messages from its second
// request on.
func TestMemoKeepsNoLonePrompt(t *testing.T) {
	m := NewMemo()
	decodes := 0
	decode := func(i int, item json.RawMessage) (Message, error) {
		decodes++
		return Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: string(item)}}}, nil
	}
	for i := range 100 {
		msgs, err := m.DecodeMessages(json.RawMessage(fmt.Sprintf(`["prompt %d"]`, i)), decode)
		if err != nil || len(msgs) != 1 || msgs[0].Blocks[0].Text != fmt.Sprintf(`"prompt %d"`, i) {
			t.Fatalf("prompt %d: %v %v", i, msgs, err)
		}
	}
	if len(m.msgs) != 0 || decodes != 100 {
		t.Fatalf("after 100 prompts the memo holds %d messages (%d decodes)", len(m.msgs), decodes)
	}
	decodes = 0
	for _, array := range []string{`["a","b"]`, `["a","b","c"]`} {
		msgs, err := m.DecodeMessages(json.RawMessage(array), decode)
		if err != nil || len(msgs) == 0 {
			t.Fatal(array, err)
		}
	}
	if decodes != 3 {
		t.Errorf("a growing conversation's messages were decoded %d times, not once each (3)", decodes)
	}
}
