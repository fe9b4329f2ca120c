// @ts-check
import js from "@eslint/js"
import nx from "@nx/eslint-plugin"
import { createProjectGraphAsync } from "@nx/devkit"
import { defineConfig } from "eslint/config"
import tseslint from "typescript-eslint"

// The module-boundary rule only reads Nx's cached project graph and silently skips itself when there is none,
// so build (or refresh) the graph here: every ESLint run, from the CLI or an editor, then checks boundaries.
process.env.NX_DAEMON ??= "false"
process.env.NX_NO_CLOUD ??= "true"
await createProjectGraphAsync({ exitOnError: true })

const everyTag = ["type:contracts", "type:lib", "type:service", "type:runtime", "type:test"]

// Plain .js/.mjs files run on Node: accept whatever globals this Node provides instead of listing them by hand.
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, "readonly"]))

export default defineConfig(
  {
    ignores: ["**/node_modules/**", "**/data/**", "**/.data/**", ".nx/**", "**/dist/**", "**/coverage/**", ".tmp/**", ".cache/**"]
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: nodeGlobals }
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true
        }
      ],
      // Effect.gen bodies are generators that may return without yielding.
      "require-yield": "off",
      // Effect idioms: `Data.TaggedError("NotFound")<{}>` and `interface User extends Schema.Schema.Type<typeof User> {}`.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends", allowObjectTypes: "always" }],
      // `any` in Effect code sits in generic constraints (`Schema.Schema<any, any, never>`) where `unknown` does not
      // type-check; strict tsc already rejects implicit any.
      "@typescript-eslint/no-explicit-any": "off",
      // Effect-style companion types: `export declare namespace X { type Y = ... }`.
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }]
    }
  },
  {
    files: ["contracts/**/*.ts", "libs/**/*.ts", "services/**/*.ts"],
    ignores: ["**/*.spec.ts"],
    rules: {
      // Configuration goes through effect's Config, never straight to the environment.
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration with effect's Config instead." }
      ]
    }
  },
  {
    files: ["**/*.ts"],
    plugins: { "@nx": nx },
    rules: {
      "@nx/enforce-module-boundaries": [
        "error",
        {
          allow: [],
          depConstraints: [
            {
              sourceTag: "type:contracts",
              onlyDependOnLibsWithTags: ["type:contracts"],
              allowedExternalImports: ["effect", "effect/*", "@effect/platform", "@effect/platform/*"]
            },
            { sourceTag: "type:lib", onlyDependOnLibsWithTags: ["type:contracts", "type:lib"] },
            { sourceTag: "type:service", onlyDependOnLibsWithTags: ["type:contracts", "type:lib"] },
            { sourceTag: "type:runtime", onlyDependOnLibsWithTags: everyTag },
            { sourceTag: "type:test", onlyDependOnLibsWithTags: everyTag }
          ]
        }
      ]
    }
  }
)
