package shell

import "strings"

// codeKey says why a configuration key makes git run a program or read
// configuration from elsewhere, or "" when it does not. The key is
// canonical (see CanonicalKey). See docs/shell.md#git.
func codeKey(key string, values []string) string {
	k := strings.ToLower(key)
	section, rest, _ := strings.Cut(k, ".")
	name := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		name = rest[i+1:]
	}
	switch k {
	case "core.sshcommand", "core.hookspath", "core.fsmonitor", "core.pager", "core.editor", "core.askpass",
		"core.gitproxy", "core.alternaterefscommand", "core.worktree", "sequence.editor", "credential.helper", "diff.external", "gpg.program", "protocol.ext.allow",
		"protocol.allow", "uploadpack.packobjectshook", "include.path", "init.templatedir", "web.browser",
		"ssh.variant", "receive.procreceiverefs", "safe.directory",
		"extensions.worktreeconfig", "interactive.difffilter", "sendemail.smtpserver", "sendemail.sendmailcmd",
		"sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd":
		return "code-executing key " + key
	}
	if section == "alias" {
		for _, v := range values {
			if strings.HasPrefix(strings.TrimSpace(v), "!") {
				return "code-executing key " + key
			}
		}
		return ""
	}
	switch section {
	case "pager", "filter", "hook", "includeif", "browser", "difftool", "mergetool", "man", "url", "protocol":
		return "code-executing key " + key
	case "remote":
		switch name {
		case "push", "mirror", "pushdefault":
			return ""
		}
		switch name {
		case "uploadpack", "receivepack", "proxy", "vcs", "url", "pushurl":
			return "code-executing key " + key
		}
	case "submodule":
		if name == "update" || name == "url" {
			return "code-executing key " + key
		}
	case "credential":
		if name == "helper" {
			return "code-executing key " + key
		}
	case "diff", "merge":
		switch name {
		case "textconv", "command", "driver", "external", "tool":
			return "code-executing key " + key
		}
	case "gpg":
		if name == "program" || name == "defaultkeycommand" {
			return "code-executing key " + key
		}
	}
	if name == "textconv" {
		return "code-executing key " + key
	}
	for _, suf := range []string{"command", "cmd", "program", "helper", "editor", "pager", "hook", "hookspath", "driver", "proxy", "askpass", "external"} {
		if strings.HasSuffix(name, suf) {
			return "code-executing key " + key
		}
	}
	return ""
}
