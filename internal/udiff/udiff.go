package udiff

import "strings"

// Context is the number of unchanged lines shown around each change.
const Context = 3

// Unified returns the unified diff that turns text a into text b, with the
// headers "--- oldName" and "+++ newName" and Context lines of context, or ""
// when a == b. A last line without a newline is marked the way diff(1) and
// git mark it: "\ No newline at end of file".
func Unified(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	ops := script(al, bl)

	var sb strings.Builder
	sb.WriteString("--- " + oldName + "\n")
	sb.WriteString("+++ " + newName + "\n")
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == equal {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-Context, 0)
		end := i // one past the last change of the hunk
		for {
			for end < len(ops) && ops[end].kind != equal {
				end++
			}
			k := end
			for k < len(ops) && ops[k].kind == equal {
				k++
			}
			// Changes closer than 2*Context lines share one hunk.
			if k == len(ops) || k-end > 2*Context {
				break
			}
			end = k
		}
		stop := min(end+Context, len(ops))
		writeHunk(&sb, ops[start:stop], al, bl)
		i = stop
	}
	return sb.String()
}

type kind uint8

const (
	equal kind = iota
	del
	ins
)

// op is one line of the edit script. a and b are the positions in the old
// and new lines: the line itself for the side it belongs to, else the index
// of the next line on that side.
type op struct {
	kind kind
	a, b int
}

func writeHunk(sb *strings.Builder, ops []op, al, bl []string) {
	na, nb := 0, 0
	for _, o := range ops {
		if o.kind != ins {
			na++
		}
		if o.kind != del {
			nb++
		}
	}
	sb.WriteString("@@ -" + rangeOf(ops[0].a, na) + " +" + rangeOf(ops[0].b, nb) + " @@\n")
	for _, o := range ops {
		switch o.kind {
		case equal:
			writeLine(sb, ' ', al[o.a])
		case del:
			writeLine(sb, '-', al[o.a])
		case ins:
			writeLine(sb, '+', bl[o.b])
		}
	}
}

// rangeOf formats a hunk range like GNU diff: "l,n", "l" when n is 1, and
// for an empty range the line before it ("0,0" at the start of the file).
func rangeOf(start, n int) string {
	switch n {
	case 0:
		return itoa(start) + ",0"
	case 1:
		return itoa(start + 1)
	}
	return itoa(start+1) + "," + itoa(n)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var buf [20]byte
	p := len(buf)
	for ; i > 0; i /= 10 {
		p--
		buf[p] = byte('0' + i%10)
	}
	return string(buf[p:])
}

func writeLine(sb *strings.Builder, prefix byte, line string) {
	sb.WriteByte(prefix)
	sb.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		sb.WriteString("\n\\ No newline at end of file\n")
	}
}

// splitLines splits s after each newline; a last line without one is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}
