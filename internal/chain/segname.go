package chain

// ParseSegName reads a segment file's name, "<from>-<to>.jsonl" with nine
// digits each (docs/record.md#the-branch-copy); ok is false for any other
// name. Each number is read as strconv.ParseInt reads it (an optional
// sign, then decimal digits). It takes a Git tree entry's name as bytes, so
// that listing a writer's folder of hundreds of files makes no string per
// name.
func ParseSegName[T string | []byte](name T) (from, to int64, ok bool) {
	const suffix = ".jsonl"
	if len(name) != 9+1+9+len(suffix) || string(name[19:]) != suffix || name[9] != '-' {
		return 0, 0, false
	}
	from, ok1 := parseNine(name[:9])
	to, ok2 := parseNine(name[10:19])
	return from, to, ok1 && ok2 && from >= 1 && to >= from
}

func parseNine[T string | []byte](d T) (int64, bool) {
	neg, i := false, 0
	if d[0] == '+' || d[0] == '-' {
		neg, i = d[0] == '-', 1
	}
	var n int64
	for ; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(d[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
