package templates

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestGradleTasksRegistered: the tasks a build registers, in either DSL
// and in the build logic, and nothing a task reference or a risky name
// would add.
func TestGradleTasksRegistered(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("build.gradle", "task hello {\n}\ntask copyDocs(type: Copy) {}\ntasks.named('check') { dependsOn tasks.named('verifyCoverage') }\n"+
		"task.dependsOn('x')\ntasks.register('publishDocs')\ntask(\"lint2\")\n")
	write("app/build.gradle.kts", "tasks.register<Exec>(\"integrationTest\") {}\ntasks.create(\"signJars\")\n")
	write("build-logic/src/main/groovy/cov.gradle", "tasks.register('verifyCoverage', JacocoCoverageVerification) {}\n")
	write("buildSrc/src/main/kotlin/x.gradle.kts", "tasks.register(\"dockerPush\")\ntasks.register( \"fmtAll\" )\n")
	got := gradleTasks(repo{root: root})
	want := []string{"hello", "copyDocs", "lint2", "integrationTest", "fmtAll", "verifyCoverage"}
	if !sameSet(got, want) {
		t.Errorf("gradleTasks = %v, want %v", got, want)
	}
}

// TestProjectScriptsNamed: committed shell scripts in the usual places,
// each with its edits asked; installers, deployers, the build tools'
// wrappers and files that are not shell scripts are left out.
func TestProjectScriptsNamed(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"test.sh": "pytest\n", "scripts/lint": "#!/usr/bin/env bash\nruff check .\n", "scripts/gen.py": "#!/usr/bin/env python3\n",
		"scripts/deploy.sh": "", "scripts/install-hooks.sh": "", "gradlew": "#!/bin/sh\n", "configure": "#!/bin/sh\n",
		"docs/build.sh": "", "notes": "plain text\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := &Project{}
	detectScripts(repo{root: root}, p)
	want := []string{"Bash(./test.sh *)", "Bash(bash test.sh *)", "Bash(sh test.sh *)",
		"Bash(./scripts/lint *)", "Bash(bash scripts/lint *)", "Bash(sh scripts/lint *)", "Bash(scripts/lint *)"}
	if !reflect.DeepEqual(p.Change, want) {
		t.Errorf("change = %v, want %v", p.Change, want)
	}
	if wantAsk := []string{"Edit(**/test.sh)", "Edit(**/scripts/lint)"}; !reflect.DeepEqual(p.Ask, wantAsk) {
		t.Errorf("ask = %v, want %v", p.Ask, wantAsk)
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}
