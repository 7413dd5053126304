package testkit

import (
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// valueName is what a placeholder in a flag's help may be: a name in
// capitals for the value, such as N, PATH or HOST:PORT.
var valueName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*([:=,./-][A-Z][A-Z0-9_]*)*$`)

// FlagPlaceholderProblems walks every command under root and names each
// flag whose help pflag would print with a placeholder that is not a value
// name. pflag takes the first word in backticks of a flag's usage as its
// placeholder (`--writer W`), so "runs `gitwarrant ci`" on a boolean flag
// prints as `--pre-push gitwarrant ci`, as if the flag took a value.
func FlagPlaceholderProblems(root *cobra.Command) []string {
	var problems []string
	cmds := []*cobra.Command{root}
	for i := 0; i < len(cmds); i++ {
		cmds = append(cmds, cmds[i].Commands()...)
		cmds[i].LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(f.Usage, "`") {
				return
			}
			name, _ := pflag.UnquoteUsage(f)
			where := cmds[i].CommandPath() + " --" + f.Name
			switch {
			case f.Value.Type() == "bool" || f.NoOptDefVal != "":
				problems = append(problems, where+" takes no value, but its help has a word in backticks, which pflag prints as a placeholder: "+f.Usage)
			case !valueName.MatchString(name):
				problems = append(problems, where+": the placeholder "+"`"+name+"`"+" is not a value name (write it in capitals, such as N or PATH): "+f.Usage)
			}
		})
	}
	return problems
}
