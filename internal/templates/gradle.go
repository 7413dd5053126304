package templates

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// gradleTaskRE finds tasks a build script registers: `tasks.register("x")`,
// `tasks.register<T>("x")`, `tasks.create('x')`, `task x`, `task("x")`.
var gradleTaskRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:\btasks\.(?:register|create)\s*(?:<[^>]*>)?\s*\(\s*["']|^\s*task(?:\s+|\s*\(\s*)["']?)([A-Za-z][A-Za-z0-9_]*)(?:["'\s({,]|$)`)
})

// riskyTask names Gradle tasks a fix loop does not run on its own, beyond
// riskyScript: uploads, installs, signing and container pushes.
var riskyTask = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)install|upload|push|sign|jib|docker`)
})

// gradleBuildLogic are the folders of a build's own logic (convention
// plugins, script plugins): where project tasks are registered besides
// the build files.
var gradleBuildLogic = []string{"buildSrc", "build-logic", "gradle"}

// gradleTasks lists the tasks the project's build scripts register, read
// from the root and module build files and the build-logic folders (at
// most 200 scripts), so `./gradlew verifyCoverage` is named when the
// project defines it. What a task runs is the build logic's, whose edits
// the loop asks for.
func gradleTasks(r repo) []string {
	var scripts []string
	for _, f := range []string{"build.gradle", "build.gradle.kts"} {
		scripts = append(scripts, f)
	}
	modules, _ := filepath.Glob(filepath.Join(r.root, "*", "build.gradle*"))
	for _, m := range modules {
		if rel, err := filepath.Rel(r.root, m); err == nil {
			scripts = append(scripts, rel)
		}
	}
	for _, dir := range gradleBuildLogic {
		_ = filepath.WalkDir(filepath.Join(r.root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(scripts) >= 200 {
				return filepath.SkipDir
			}
			if d.IsDir() && (skipDirs()[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".gradle") || strings.HasSuffix(p, ".gradle.kts")) {
				if rel, err := filepath.Rel(r.root, p); err == nil {
					scripts = append(scripts, rel)
				}
			}
			return nil
		})
	}
	var tasks []string
	for _, s := range dedupe(scripts) {
		for _, m := range gradleTaskRE().FindAllStringSubmatch(r.read(s), -1) {
			if t := m[1]; !riskyScript().MatchString(t) && !riskyTask().MatchString(t) {
				tasks = append(tasks, t)
			}
		}
	}
	return tasks
}
