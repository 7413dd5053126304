package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// failClosed makes the whole tree, once built, fail closed on a command
// line it cannot run: a group without its command, a misspelt command, a
// wrong number of arguments, a help topic that does not exist — each an
// error with a hint and exit 1. It visits every command, so one added
// later gets the same.
func failClosed(root *cobra.Command) {
	// cobra adds these while executing; add them now so the visit sees
	// the whole tree (completion is a group: bash, zsh, fish, powershell).
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	visit(root, func(c *cobra.Command) {
		requireCommand(c)
		hintArgs(c)
	})
	strictHelp(root)
}

// visit calls f on c and every command below it.
func visit(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		visit(sub, f)
	}
}

// hintArgs gives cobra's argument errors ("accepts 1 arg(s), received 0")
// the command they are about and its usage line as the hint, as every
// error of gitwarrant's own has one.
func hintArgs(c *cobra.Command) {
	check := c.Args
	if check == nil || c.HasSubCommands() {
		return
	}
	c.Args = func(c *cobra.Command, args []string) error {
		err := check(c, args)
		switch {
		case err == nil:
			return nil
		case len(args) > 0 && strings.HasPrefix(err.Error(), "unknown command"):
			// cobra.NoArgs words it as if a subcommand were misspelt.
			return usageError(c, "usage: "+c.UseLine(), "%s takes no arguments (got %q)", name(c), strings.Join(args, " "))
		default:
			return usageError(c, "usage: "+c.UseLine(), "%s: %v", name(c), err)
		}
	}
}

// strictHelp makes `gitwarrant help <topic>` fail like the command it
// names would: cobra prints the root's help and exits 0 for a topic it
// does not know.
func strictHelp(root *cobra.Command) {
	for _, h := range root.Commands() {
		if h.Name() != "help" || h.Run == nil {
			continue
		}
		show := h.Run
		h.Run = nil
		h.RunE = func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil {
				return Usagef(subcommandHint(c.Root()), "%v", err)
			}
			if err := unknownCommand(target, rest); err != nil {
				return Usagef(subcommandHint(target), "%v", errors.Unwrap(err)) // a person asked: exit 1
			}
			show(c, args)
			return nil
		}
	}
}

// requireCommand makes every command that has subcommands (a group: the
// root, record, hook, completion, and any added later) fail closed. cobra
// answers a group run with no subcommand, or with one it does not know,
// by printing help and exiting 0, so `gitwarrant record verfy` in a CI
// step or `gitwarrant hook pre-comit` in a git hook would pass silently.
// Here both exit 1: an unknown name with cobra's suggestions, a missing
// one with the list to choose from.
func requireCommand(c *cobra.Command) {
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.Args = unknownCommand
		c.RunE = missingCommand
		c.DisableFlagsInUseLine = true // its usage is "<group> <command>"
	}
}

// usageExitAnnotation, set on a command, is the exit status of a usage
// error (a missing or unknown command, a wrong argument or flag) in it or
// any command below it, where 1 would not stop the caller: Claude Code
// takes a hook's exit 1 as "go ahead" and only 2 as "block"
// (docs/hook-protocol.md#claude-code-hooks).
const usageExitAnnotation = "gitwarrant.usage-exit"

// usageError is a usage error with the exit status c's place in the tree
// gives it: 1 unless c or a command above it says otherwise.
func usageError(c *cobra.Command, hint, format string, args ...any) error {
	code := ExitError1
	for p := c; p != nil; p = p.Parent() {
		if v, err := strconv.Atoi(p.Annotations[usageExitAnnotation]); err == nil {
			code = v
			break
		}
	}
	return &ExitError{Code: code, Err: fmt.Errorf(format, args...), Hint: hint}
}

// groupError is a usage error of a group, hinting at its commands.
func groupError(c *cobra.Command, format string, args ...any) error {
	return usageError(c, subcommandHint(c), format, args...)
}

// unknownCommand rejects any positional argument of a group: cobra only
// gets here when the first one named none of its subcommands.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's default, set lazily
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" — did you mean %s?", quoteOr(s))
	}
	return groupError(c, "%s", msg)
}

// missingCommand is a group's run: reached only with no subcommand.
func missingCommand(c *cobra.Command, _ []string) error {
	if !c.HasParent() {
		return groupError(c, "no command given")
	}
	return groupError(c, "%s needs a command", name(c))
}

// name is a command's path without the tool's name ("record verify").
func name(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

func subcommandHint(c *cobra.Command) string {
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return fmt.Sprintf("choose one of %s (see `%s --help`)", strings.Join(names, ", "), c.CommandPath())
}

// quoteOr renders ["a" "b"] as `"a" or "b"`.
func quoteOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
