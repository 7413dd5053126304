package eval

import (
	"os"
	"path/filepath"
	"sort"
)

// fixtures are small repositories of each ecosystem the corpora replay in
// (eval/corpus/README.md): the build files and folders a project of that
// kind has, nothing shaped after a particular call.
var fixtures = map[string]map[string]string{
	"go": {
		"go.mod":                         "module example.com/app\n\ngo 1.22\n",
		"go.sum":                         "",
		"main.go":                        "package main\n\nfunc main() {}\n",
		"cmd/app/main.go":                "package main\n\nfunc main() {}\n",
		"internal/store/store.go":        "package store\n",
		"internal/store/store_test.go":   "package store\n",
		"testdata/golden.txt":            "",
		"Makefile":                       ".PHONY: build start test lint fmt cover coverage quality deps ci\nbuild:\n\tgo build ./...\nstart:\n\tgo run ./cmd/app\ntest:\n\tgo test ./...\nlint:\n\tgolangci-lint run\nfmt:\n\tgofmt -w .\ncover coverage:\n\tgo test -cover ./...\nquality: fmt lint test\ndeps:\n\tgo mod tidy\nci: lint test\nrelease:\n\tgoreleaser release\n",
		".golangci.yml":                  "linters: {}\n",
		".pre-commit-config.yaml":        "repos: []\n",
		"README.md":                      "# app\n",
		"docs/index.md":                  "# docs\n",
		".github/workflows/ci.yml":       "on: push\n",
		".gitignore":                     "bin/\n",
		"LICENSE":                        "MIT\n",
		"cmd/app/testdata/input.json":    "{}\n",
		"internal/store/testdata/x.json": "{}\n",
	},
	"node": {
		"package.json": `{"name":"web","private":true,"scripts":{"dev":"vite","build":"tsc -b && vite build","start":"node dist/server.js",` +
			`"test":"vitest run","test:watch":"vitest","test:coverage":"vitest run --coverage","test:e2e":"playwright test","lint":"eslint .",` +
			`"lint:fix":"eslint . --fix","format":"prettier --write .","format:check":"prettier --check .","typecheck":"tsc --noEmit",` +
			`"check":"npm run lint && npm run typecheck && npm test","ci":"npm run check && npm run build","compile":"tsc","check:fix":"biome check --write .",` +
			`"cli":"tsx src/cli.ts","deploy":"wrangler deploy","db:migrate":"prisma migrate dev"},` +
			`"devDependencies":{"typescript":"^5.6.0","vitest":"^2.1.0","eslint":"^9.0.0","prettier":"^3.3.0","@playwright/test":"^1.48.0","prisma":"^5.20.0","astro":"^4.0.0"},` +
			`"dependencies":{"react":"^19.0.0","next":"^15.0.0"}}`,
		"package-lock.json":        "{}\n",
		"tsconfig.json":            "{}\n",
		"src/index.ts":             "export {}\n",
		"src/cli.ts":               "export {}\n",
		"app/page.tsx":             "export default function Page() { return null }\n",
		"components/ui/button.tsx": "export {}\n",
		"lib/utils.ts":             "export {}\n",
		"prisma/schema.prisma":     "datasource db { provider = \"sqlite\" url = \"file:dev.db\" }\n",
		"test/unit/app.test.ts":    "export {}\n",
		"tests/home.spec.ts":       "export {}\n",
		"public/favicon.svg":       "<svg/>\n",
		"README.md":                "# web\n",
		".github/workflows/ci.yml": "on: push\n",
	},
	"node-pnpm": {
		"package.json": `{"name":"mono","private":true,"packageManager":"pnpm@9.12.0","scripts":{"dev":"turbo dev","build":"turbo build","start":"node apps/web/server.js",` +
			`"test":"turbo test","test:watch":"vitest","test:e2e":"playwright test","lint":"turbo lint","lint:fix":"turbo lint -- --fix","format":"prettier --write .",` +
			`"typecheck":"turbo typecheck","turbo":"turbo","release":"changeset publish"},` +
			`"devDependencies":{"typescript":"^5.6.0","vitest":"^2.1.0","@playwright/test":"^1.48.0","prettier":"^3.3.0","turbo":"^2.0.0"}}`,
		"pnpm-lock.yaml":            "lockfileVersion: '9.0'\n",
		"pnpm-workspace.yaml":       "packages: ['apps/*', 'packages/*']\n",
		"apps/web/package.json":     `{"name":"web","scripts":{"dev":"vite","typecheck":"tsc --noEmit"}}`,
		"apps/web/src/main.ts":      "export {}\n",
		"packages/ui/package.json":  `{"name":"ui","scripts":{"typecheck":"tsc --noEmit"}}`,
		"packages/ui/src/button.ts": "export {}\n",
		"biome.json":                "{}\n",
		"README.md":                 "# mono\n",
		".github/workflows/ci.yml":  "on: push\n",
	},
	"node-yarn": {
		"package.json": `{"name":"www","private":true,"scripts":{"check-all":"yarn tsc && yarn lint && yarn test","tsc":"tsc --noEmit","lint":"eslint src","test":"vitest run","build":"vite build"},` +
			`"devDependencies":{"typescript":"^5.6.0","vitest":"^2.1.0","eslint":"^9.0.0"}}`,
		"yarn.lock":    "",
		"src/index.ts": "export {}\n",
		"src/app.tsx":  "export {}\n",
		"README.md":    "# www\n",
	},
	"python-uv": {
		"pyproject.toml":           "[project]\nname = \"pkg\"\nversion = \"0.1.0\"\n[dependency-groups]\ndev = [\"pytest\", \"ruff\", \"mypy\", \"ty\", \"black\"]\n[tool.ruff]\nline-length = 100\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
		"uv.lock":                  "version = 1\n",
		"src/pkg/__init__.py":      "",
		"tests/test_client.py":     "",
		"test.sh":                  "#!/bin/sh\nuv run pytest\n",
		"README.md":                "# pkg\n",
		".github/workflows/ci.yml": "on: push\n",
	},
	"python-pip": {
		"pyproject.toml":          "[project]\nname = \"app\"\nversion = \"0.1.0\"\n[project.optional-dependencies]\ndev = [\"pytest\", \"ruff\", \"mypy\", \"black\", \"isort\", \"pflake8\", \"tox\"]\n",
		"requirements.txt":        "requests\n",
		"tox.ini":                 "[tox]\nenvlist = py312, lint\n[testenv]\ncommands = pytest\n",
		".pre-commit-config.yaml": "repos: []\n",
		"scripts/agent-setup.sh":  "#!/usr/bin/env bash\nset -euo pipefail\npip install -r requirements.txt\npip install -e .\n",
		"main.py":                 "",
		"src/router.py":           "",
		"tests/test_router.py":    "",
		"tests/test_metrics.py":   "",
		"tests/test_storage.py":   "",
		"README.md":               "# app\n",
	},
	"python-django": {
		"manage.py":                      "",
		"requirements.txt":               "django\nflake8\nmypy\n",
		"api/__init__.py":                "",
		"api/models.py":                  "",
		"api/views.py":                   "",
		"api/tests.py":                   "",
		"api/migrations/0001_initial.py": "",
		"templates/base.html":            "",
		"README.md":                      "# site\n",
	},
	"python-poetry": {
		"pyproject.toml":      "[tool.poetry]\nname = \"lib\"\nversion = \"0.1.0\"\n[tool.poetry.group.dev.dependencies]\npytest = \"*\"\nruff = \"*\"\nmypy = \"*\"\ncoverage = \"*\"\n",
		"poetry.lock":         "",
		"Makefile":            "install:\n\tpoetry install\nformat:\n\tpoetry run ruff format .\nlint:\n\tpoetry run ruff check .\ntest:\n\tpoetry run pytest\ncheck: lint test\n",
		"lib/__init__.py":     "",
		"tests/test_users.py": "",
		"README.md":           "# lib\n",
	},
	"rust": {
		"Cargo.toml":                "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\nmembers = [\"crates/*\"]\n",
		"Cargo.lock":                "",
		"src/main.rs":               "fn main() {}\n",
		"src/lib.rs":                "",
		"tests/performance_test.rs": "",
		"benches/bench.rs":          "",
		"crates/core/Cargo.toml":    "[package]\nname = \"core\"\n",
		"crates/core/src/lib.rs":    "",
		"README.md":                 "# app\n",
	},
	"java-maven": {
		"pom.xml": "<project><parent><artifactId>spring-boot-starter-parent</artifactId></parent></project>\n",
		"mvnw":    mvnwScript,
		"src/main/java/com/example/data/AbstractEntity.java": "class AbstractEntity {}\n",
		"src/test/java/com/example/RaffleServiceTest.java":   "class RaffleServiceTest {}\n",
		"README.md": "# service\n",
	},
	// The shape of an Android app's build (the second honest corpus's
	// Kotlin project, testdata/honest2/README.md): Groovy build files, the
	// Android plugin applied in the app module, signing read from
	// local.properties.
	"android-gradle": {
		"build.gradle":                     "plugins {\n    id 'com.android.application' version '8.13.1' apply false\n    id 'org.jetbrains.kotlin.android' version '1.9.24' apply false\n}\n",
		"settings.gradle":                  "rootProject.name = \"Widget\"\ninclude ':app'\n",
		"app/build.gradle":                 "plugins {\n    id 'com.android.application'\n    id 'org.jetbrains.kotlin.android'\n}\nandroid {\n    namespace = 'ai.example.widget'\n}\n",
		"app/src/main/AndroidManifest.xml": "<manifest/>\n",
		"app/src/main/java/ai/example/widget/WidgetProvider.kt":     "class WidgetProvider\n",
		"app/src/test/java/ai/example/widget/WidgetProviderTest.kt": "class WidgetProviderTest\n",
		"gradlew": gradlewScript,
		"gradle/wrapper/gradle-wrapper.properties": "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.13-bin.zip\n",
		"gradle.properties":                        "org.gradle.jvmargs=-Xmx2g\n",
		"local.properties":                         "sdk.dir=/opt/android\nRELEASE_STORE_PASSWORD=x\n",
		"keystore.properties.example":              "storeFile=\n",
		"README.md":                                "# widget\n",
	},
	"java-gradle": {
		"build.gradle.kts":    "plugins { application; id(\"org.jlleitschuh.gradle.ktlint\"); id(\"com.diffplug.spotless\"); id(\"org.jetbrains.intellij\") }\n",
		"settings.gradle.kts": "pluginManagement { includeBuild(\"build-logic\") }\nrootProject.name = \"app\"\ninclude(\":common\", \":calculator\")\n",
		"build-logic/src/main/groovy/app.coverage-conventions.gradle": "plugins { id 'jacoco' }\n" +
			"tasks.register('testCodeCoverageReport', JacocoReport) { dependsOn(tasks.named('test')) }\n" +
			"tasks.register('verifyCoverage', JacocoCoverageVerification) { dependsOn tasks.named('testCodeCoverageReport') }\n" +
			"tasks.register('showCoverageReport') { dependsOn tasks.named('testCodeCoverageReport') }\n",
		"gradlew":                                gradlewScript,
		"gradle.properties":                      "org.gradle.jvmargs=-Xmx2g\n",
		"local.properties":                       "sdk.dir=/opt/android\n",
		"src/main/kotlin/Main.kt":                "fun main() {}\n",
		"src/test/kotlin/MainTest.kt":            "class MainTest\n",
		"src/main/resources/META-INF/plugin.xml": "<idea-plugin/>\n",
		"README.md":                              "# app\n",
	},
}

// writeFixture writes fixture name under dir.
func writeFixture(dir, name string) error {
	files := fixtures[name]
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Base(k) == "gradlew" || filepath.Base(k) == "mvnw" || filepath.Ext(k) == ".sh" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(files[k]), mode); err != nil {
			return err
		}
	}
	return nil
}

// gradlewScript and mvnwScript are the shape of the wrappers Gradle and
// Maven generate, reduced to what the gate reads: they find the JVM and
// exec it with the wrapper jar and every argument — a command named by a
// variable, which the gate cannot read. An empty wrapper would hide that
// (docs/typed-entries.md#project-scripts).
const gradlewScript = `#!/bin/sh
APP_HOME=$(cd "${APP_HOME:-./}" > /dev/null && pwd -P) || exit
CLASSPATH=$APP_HOME/gradle/wrapper/gradle-wrapper.jar
if [ -n "$JAVA_HOME" ] ; then
    JAVACMD=$JAVA_HOME/bin/java
else
    JAVACMD=java
fi
set -- "-Dorg.gradle.appname=$APP_BASE_NAME" -classpath "$CLASSPATH" org.gradle.wrapper.GradleWrapperMain "$@"
exec "$JAVACMD" "$@"
`

const mvnwScript = `#!/bin/sh
set -euf
MAVEN_PROJECTBASEDIR=$(cd "$(dirname "$0")" && pwd)
if [ -n "${JAVA_HOME-}" ]; then
  JAVACMD="$JAVA_HOME/bin/java"
else
  JAVACMD=java
fi
exec "$JAVACMD" $MAVEN_OPTS -classpath "$MAVEN_PROJECTBASEDIR/.mvn/wrapper/maven-wrapper.jar" "-Dmaven.multiModuleProjectDirectory=$MAVEN_PROJECTBASEDIR" org.apache.maven.wrapper.MavenWrapperMain "$@"
`
