//! Layers that point one way: no import cycle between the workspace's crates, nor between the
//! modules of any crate.
//!
//! A module cycle is judged between siblings: for two modules with the same parent, A depends
//! on B when anything in A (its files and everything below it) names anything in B through a
//! `crate::` or `super::` path. A parent and its own children are not siblings (a parent
//! declares its children and a child may use its parent's items). The siblings' dependencies
//! must form no cycle, at every level of every crate: `model` may not use `sim` while `sim`
//! uses `model`, nor `sim/compile.rs` use `sim/forces/` while `sim/forces/` uses
//! `sim/compile.rs`. Unit tests (each item under `#[cfg(test)]`, and only it) are left out:
//! they may use what they test from anywhere.
//!
//! The check reads whole source files as text: paths in comments are removed first, a `use`
//! tree (`use crate::{a::b, c::{d, e}}`) is expanded into its paths, and a path through a
//! re-export (`crate::CoreError`, which the crate root re-exports from `error`) is followed to
//! the module that defines the item, so that a cycle through a re-export is seen.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside its crate (`["sim", "forces", "shape"]`); the crate root is empty.
type ModPath = Vec<String>;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crates of the workspace: (folder name, package name).
fn crates() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let dir = workspace().join("crates");
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("crates/").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        let Ok(manifest) = std::fs::read_to_string(path.join("Cargo.toml")) else { continue };
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("a package name")
            .to_owned();
        out.push((path, name));
    }
    out
}

/// The workspace packages `manifest` depends on, normal and dev dependencies alike.
fn workspace_dependencies(manifest: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line.ends_with("dependencies]");
            continue;
        }
        if !in_deps {
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if names.contains(key) {
            deps.insert(key.to_owned());
        }
    }
    deps
}

/// Every `.rs` file of a crate's `src/` with its module path.
fn modules(src: &Path) -> Vec<(PathBuf, ModPath)> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("inside src");
            let mut parts: ModPath =
                relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let file = parts.pop().expect("a file name");
            let stem = file.trim_end_matches(".rs");
            if !matches!(stem, "mod" | "lib" | "main") {
                parts.push(stem.to_owned());
            }
            out.push((path, parts));
        }
    }
    out
}

/// `text` without comments and without its unit tests: each item under `#[cfg(test)]` (a
/// `mod tests { ... }`, a function, a `use`) is left out, and what follows it is kept.
fn code(text: &str) -> String {
    let text: String =
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        rest = &rest[item_length(rest)..];
    }
    out.push_str(rest);
    out
}

/// The length of the item `text` starts with (after its attributes): up to its `;`, or to the
/// `}` that closes its first `{`, skipping string and character literals.
fn item_length(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A character literal ('{', '\''), not a lifetime ('a).
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The paths `text` names from `prefix` on (`crate::` or `super::`), `use` trees expanded.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut chars = rest.chars().peekable();
        tree(&mut chars, Vec::new(), &mut out);
    }
    out
}

/// Parses one `use` tree (a path, then maybe `::{...}`) into `out`, each path after `base`.
fn tree(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    base: Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    let mut path = base;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek() == Some(&'{') {
            chars.next();
            loop {
                tree(chars, path.clone(), out);
                while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ',') {
                    chars.next();
                }
                match chars.peek() {
                    Some('}') => {
                        chars.next();
                        return;
                    }
                    None => return,
                    _ => {}
                }
            }
        }
        let mut ident = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_alphanumeric() || c == '_' {
                ident.push(c);
                chars.next();
            } else {
                break;
            }
        }
        if ident.is_empty() {
            out.push(path);
            return;
        }
        path.push(ident);
        let mut lookahead = chars.clone();
        if lookahead.next() == Some(':') && lookahead.next() == Some(':') {
            chars.next();
            chars.next();
        } else {
            out.push(path);
            return;
        }
    }
}

/// Each module's re-exports: (module, name) → the path (from the crate root) of what the name
/// stands for, from its `pub use` (and `pub(crate) use`, ...) declarations.
type Reexports = BTreeMap<(ModPath, String), Vec<String>>;

/// The re-exports of the module `module` whose code is `text` ([`Reexports`]).
fn reexports(text: &str, module: &ModPath, out: &mut Reexports) {
    for line in text.split(';') {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("pub") else { continue };
        let rest = rest.trim_start();
        let rest =
            if rest.starts_with('(') { &rest[rest.find(')').map_or(0, |i| i + 1)..] } else { rest };
        let Some(tree_text) = rest.trim_start().strip_prefix("use ") else { continue };
        let mut chars = tree_text.chars().peekable();
        let mut paths = Vec::new();
        tree(&mut chars, Vec::new(), &mut paths);
        for path in paths {
            let Some(name) = path.last().cloned() else { continue };
            out.insert((module.clone(), name), absolute(&path, module));
        }
    }
}

/// The path from the crate root of `path`, written in the module `module` (`crate::`,
/// `super::`, `self::` or a child's name first).
fn absolute(path: &[String], module: &ModPath) -> Vec<String> {
    match path.first().map(String::as_str) {
        Some("crate") => path[1..].to_vec(),
        Some("self") => module.iter().chain(&path[1..]).cloned().collect(),
        Some("super") => {
            let mut base = module.clone();
            let mut p = path;
            while p.first().is_some_and(|s| s == "super") {
                base.pop();
                p = &p[1..];
            }
            base.into_iter().chain(p.iter().cloned()).collect()
        }
        _ => module.iter().chain(path).cloned().collect(),
    }
}

/// The module that defines what `path` names: the longest module of `known` that it starts
/// with, followed through the re-exports `reexported` (a name a module re-exports stands for
/// the module it comes from).
fn resolve(path: &[String], known: &BTreeSet<ModPath>, reexported: &Reexports) -> ModPath {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let module = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| known.contains(p))
            .unwrap_or_default();
        let next = path.get(module.len()).cloned();
        match next.and_then(|name| reexported.get(&(module.clone(), name))) {
            Some(target) if target.as_slice() != &path[..module.len() + 1] => {
                path = target.iter().chain(&path[module.len() + 1..]).cloned().collect();
            }
            _ => return module,
        }
    }
    Vec::new()
}

/// Cycles (as lists of members) of the directed graph `edges`, by Tarjan's strongly connected
/// components.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on_stack: BTreeSet<String>,
        found: Vec<Vec<String>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: &str) {
            let i = self.index.len();
            self.index.insert(v.to_owned(), i);
            self.low.insert(v.to_owned(), i);
            self.stack.push(v.to_owned());
            self.on_stack.insert(v.to_owned());
            let next: Vec<String> = self.edges.get(v).into_iter().flatten().cloned().collect();
            for w in next {
                if !self.index.contains_key(&w) {
                    self.visit(&w);
                    let low = self.low[v].min(self.low[&w]);
                    self.low.insert(v.to_owned(), low);
                } else if self.on_stack.contains(&w) {
                    let low = self.low[v].min(self.index[&w]);
                    self.low.insert(v.to_owned(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(&w);
                    let done = w == v;
                    component.push(w);
                    if done {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    let nodes: BTreeSet<String> = edges.keys().chain(edges.values().flatten()).cloned().collect();
    for v in &nodes {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.found
}

#[test]
fn no_crate_depends_on_itself_through_others() {
    let crates = crates();
    let names: BTreeSet<String> = crates.iter().map(|(_, n)| n.clone()).collect();
    let mut edges = BTreeMap::new();
    for (dir, name) in &crates {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("manifest");
        let mut deps = workspace_dependencies(&manifest, &names);
        // A crate's dev-dependency on itself switches on its own features for its tests
        // (the plugin's `avian`): no other crate is in it.
        deps.remove(name);
        edges.insert(name.clone(), deps);
    }
    assert!(edges["springmesh-core"].is_empty(), "core depends on no other crate of ours");
    let found = cycles(&edges);
    assert!(found.is_empty(), "crates that depend on each other: {found:?}");
}

#[test]
fn no_module_depends_on_itself_through_its_siblings() {
    let problems: Vec<String> = crates()
        .into_iter()
        .flat_map(|(dir, name)| module_cycles(&dir.join("src"), &name))
        .collect();
    assert!(problems.is_empty(), "modules that depend on each other:\n{}", problems.join("\n"));
}

/// The cycles between sibling modules of the crate `name` whose sources are in `src` (module
/// doc), each with where its modules name each other.
fn module_cycles(src: &Path, name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let files = modules(src);
    let known: BTreeSet<ModPath> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut reexported = Reexports::new();
    for (file, module) in &files {
        let text = code(&std::fs::read_to_string(file).expect("a source file"));
        reexports(&text, module, &mut reexported);
    }
    // (parent, child a) -> child b -> one place where a names b.
    let mut edges: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut evidence: BTreeMap<(ModPath, String, String), String> = BTreeMap::new();
    for (file, from) in &files {
        let text = code(&std::fs::read_to_string(file).expect("a source file"));
        let mut targets: Vec<ModPath> =
            paths_after(&text, "crate::").iter().map(|p| resolve(p, &known, &reexported)).collect();
        for p in paths_after(&text, "super::") {
            // `super` of a file's module is its parent; `super::super` goes on up.
            let mut base: ModPath = from[..from.len().saturating_sub(1)].to_vec();
            let mut p = p.as_slice();
            while p.first().is_some_and(|s| s == "super") {
                base.pop();
                p = &p[1..];
            }
            base.extend(p.iter().cloned());
            targets.push(resolve(&base, &known, &reexported));
        }
        for to in targets {
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue; // the same module, or a parent and its descendant
            }
            let parent = from[..common].to_vec();
            let (a, b) = (from[common].clone(), to[common].clone());
            edges
                .entry(parent.clone())
                .or_default()
                .entry(a.clone())
                .or_default()
                .insert(b.clone());
            evidence
                .entry((parent, a, b))
                .or_insert_with(|| format!("{} names {}", file.display(), to.join("::")));
        }
    }
    for (parent, siblings) in &edges {
        for cycle in cycles(siblings) {
            let how: Vec<&String> = evidence
                .iter()
                .filter(|((p, a, b), _)| p == parent && cycle.contains(a) && cycle.contains(b))
                .map(|(_, e)| e)
                .collect();
            problems.push(format!("{name}::{}: {cycle:?} via {how:#?}", parent.join("::")));
        }
    }
    problems
}

/// A planted crate: `files` (path under `src/`, text) written into a fresh folder; its `src`.
fn planted(files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("layers-{}-{}", std::process::id(), files.len()));
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("a temporary folder");
    for (path, text) in files {
        std::fs::write(src.join(path), text).expect("a planted file");
    }
    src
}

#[test]
fn a_cycle_through_a_reexport_or_after_unit_tests_is_found() {
    // `b` names `a`'s Thing through the crate root's re-export, `a` names `b`: a cycle that
    // reading `crate::Thing` as the root would miss.
    let through_root = planted(&[
        ("lib.rs", "mod a;\nmod b;\npub use a::Thing;\n"),
        ("a.rs", "use crate::b::Other;\npub struct Thing;\n"),
        ("b.rs", "use crate::Thing;\npub struct Other;\n"),
    ]);
    let found = module_cycles(&through_root, "planted");
    assert!(found.len() == 1 && found[0].contains(r#"["a", "b"]"#), "{found:?}");
    // `b` names `a` after its unit tests: a cycle that reading up to `#[cfg(test)]` would miss;
    // what the tests themselves name is left out.
    let after_tests = planted(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::Other;\npub struct Thing;\n"),
        (
            "b.rs",
            "pub struct Other;\n#[cfg(test)]\nmod tests {\n    use crate::c::Z;\n    fn f() { let _ = \"}\"; }\n}\nuse crate::a::Thing;\n",
        ),
        ("c.rs", "use crate::b::Other;\npub struct Z;\n"),
    ]);
    let found = module_cycles(&after_tests, "planted");
    assert!(found.len() == 1 && found[0].contains(r#"["a", "b"]"#), "{found:?}");
    for src in [through_root, after_tests] {
        std::fs::remove_dir_all(src.parent().expect("its folder")).ok();
    }
}

#[test]
fn use_trees_expand_into_their_paths() {
    let text = "use crate::sim::{data::{A, B}, forces::x};\nlet v = crate::io::load(p);";
    let paths = paths_after(text, "crate::");
    let want: Vec<Vec<String>> = [
        &["sim", "data", "A"][..],
        &["sim", "data", "B"],
        &["sim", "forces", "x"],
        &["io", "load"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| (*s).to_owned()).collect())
    .collect();
    assert_eq!(paths, want);
    let mut edges = BTreeMap::new();
    edges.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    edges.insert("b".to_owned(), BTreeSet::from(["c".to_owned()]));
    assert!(cycles(&edges).is_empty());
    edges.insert("c".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(cycles(&edges), vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]]);
}
