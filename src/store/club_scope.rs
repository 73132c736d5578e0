//! Every query of the store starts from one club or one session (docs/postgres.md, "Past
//! one primary: sharding by club"): a static check of the SQL texts in the sources, so a
//! query that reads or writes the rows of every club fails here, naming its file, function
//! and SQL, unless [`ALLOWED`] lists it with the reason.
//!
//! How the texts are read: every string literal of the files (plain, continued with `\`,
//! raw, the pieces of a `concat!`, a `format!`'s or `push_str`'s) is gathered per function
//! (or `const`, or `macro_rules!`), in order. A literal opening with a statement's keyword
//! starts a statement, the others continue the one before it, and `;` splits them: the
//! SQL the function builds, its `{…}` holes aside. A statement touches a table named after
//! `FROM`, `JOIN`, `INTO` or `UPDATE`; it is scoped when it compares a key column (`id` or
//! `…_id`) to a bound parameter (`= $1`, `IN ($1, …`, `= ANY($1)`, `= ${id}`), or inserts
//! only bound values (`INSERT … VALUES`, no `SELECT`); `VACUUM INTO` copies every club.
//! What it cannot see: which table of a join the bound key filters, keywords written in
//! lower case, and SQL run inside the database (`sk_record_group` and the triggers of the
//! migrations).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The tables whose every row belongs to one club (or to one club-less session), as
/// docs/postgres.md lists them; `clubs` too, a row per club, read by name or share secret
/// only as the directory.
const CLUB_TABLES: &[&str] = &[
    "clubs",
    "sessions",
    "events",
    "postings",
    "ledger_entries",
    "idempotency_keys",
    "session_links",
    "session_meta",
    "session_status",
    "seats",
    "nights",
    "night_sessions",
    "night_payments",
    "people",
    "player_names",
    "club_players",
    "player_totals",
    "bid_totals",
    "session_results",
    "session_bids",
    "history_backlog",
    "access_tokens",
];

/// The statements allowed to reach past one club, by file and function, and why: the
/// directory look-ups (what a request starts from, before its club is known) and the
/// whole-database operations, which a sharded site runs per shard.
#[rustfmt::skip] // one look-up a line
const ALLOWED: &[(&str, &str, &str)] = &[
    ("src/store/clubs.rs", "club_by_name",
        "directory: the login form names a club"),
    ("src/store/clubs.rs", "club_by_share_token",
        "directory: a share link's secret"),
    ("src/store/clubs.rs", "token",
        "directory: a token's hash, before its club is known"),
    ("src/store/clubs.rs", "delete_token",
        "directory: logging out by the token's hash"),
    ("src/store/ops.rs", "backup_into",
        "`scorekeeper backup`: the whole database"),
    ("src/store/ops.rs", "copy_database",
        "`scorekeeper restore`: the whole backup"),
    ("src/store/backfill.rs", "sessions_without_entries",
        "the backfill's search at start"),
    ("src/store/clubs.rs", "purge_every_clubs_expired_tokens",
        "the hourly sweep of expired tokens, off any request"),
    ("src/store/copy.rs", "count",
        "`scorekeeper copy`: a whole table, or a constant filter"),
    ("src/store/copy.rs", "derived_rows",
        "`scorekeeper copy`: compares whole tables"),
    ("src/store/copy.rs", "copy_table",
        "`scorekeeper copy`: a whole table"),
    ("src/store/copy.rs", "advance_sequences",
        "`scorekeeper copy`: each table's largest id"),
    ("src/store/copy.rs", "session_ids",
        "`scorekeeper copy`: replays every session"),
    ("src/store/append/one_call.rs", "written",
        "keyed by bound arrays of session ids and seqs (`unnest($1…)`), one group's events"),
    ("src/store/listing.rs", "summary!",
        "the session list's columns: its callers add `WHERE s.club_id = $1`"),
];

/// The statement keywords that open a statement's text.
#[rustfmt::skip]
const OPENERS: &[&str] = &[
    "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "CREATE", "DROP", "ALTER", "PRAGMA",
    "VACUUM", "BEGIN", "COMMIT", "ROLLBACK", "LISTEN", "NOTIFY", "SET", "COPY", "DEALLOCATE",
];

/// One statement as the sources write it.
#[derive(Debug)]
struct Statement {
    /// The file, from the crate's root.
    file: String,
    /// The function (`const`, `name!` for a macro) whose literals it is made of.
    unit: String,
    /// Its text, whitespace folded.
    sql: String,
}

/// The files holding the store's SQL: all of src/store (its test support aside), and
/// the few beside it.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src/store")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/store is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("store/testing.rs")
                && !path.ends_with("store/club_scope.rs")
            {
                files.push(path);
            }
        }
    }
    for file in [
        "src/service/commit/group.rs",
        "src/web/live/relay.rs",
        "src/copy.rs",
    ] {
        files.push(root.join(file));
    }
    files.sort();
    files
}

/// A string literal's text, with the unit it sits in.
struct Literal {
    unit: String,
    text: String,
}

/// The string literals of `src` outside comments and the closing `mod tests`, each with
/// its innermost `fn`, `const` or `macro_rules!`.
fn literals(src: &str) -> Vec<Literal> {
    let src = src.split("\n#[cfg(test)]\nmod ").next().unwrap_or(src);
    let b = src.as_bytes();
    let (mut out, mut units, mut depth, mut i) = (Vec::new(), Vec::<(String, usize)>::new(), 0, 0);
    let mut last = "";
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some((text, len)) = string_at(rest, i > 0 && is_word(b[i - 1])) {
            let unit = units
                .last()
                .map_or("(module)", |u| u.0.as_str())
                .to_string();
            out.push(Literal { unit, text });
            i += len;
        } else if b[i] == b'\'' {
            i += char_len(rest);
        } else if is_word(b[i]) {
            let word = &rest[..rest.bytes().take_while(|&c| is_word(c)).count()];
            if matches!(last, "fn" | "const" | "macro_rules") && word != "fn" {
                let bang = if last == "macro_rules" { "!" } else { "" };
                units.push((format!("{word}{bang}"), depth));
            }
            last = word;
            i += word.len();
        } else {
            match b[i] {
                b'{' | b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'}' => {
                    depth -= 1;
                    units.retain(|u| u.1 != depth);
                }
                b';' => units.retain(|u| u.1 != depth),
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// How many bytes a `'` opens: a char literal whole (it may be a quote), or a lifetime's
/// tick alone.
fn char_len(rest: &str) -> usize {
    if let Some(escaped) = rest.strip_prefix("'\\") {
        return escaped[1..].find('\'').map_or(1, |e| e + 4);
    }
    let mut chars = rest.char_indices().skip(1);
    match (chars.next(), chars.next()) {
        (Some(_), Some((at, '\''))) => at + 1,
        _ => 1,
    }
}

/// Whether `c` may be part of an identifier.
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The string literal opening `rest` (its text, escapes kept as written, `\`-continued
/// lines joined; and its length in the source), if one does; `after_word` when an
/// identifier's letters come just before (`b` or `r` are no prefix then).
fn string_at(rest: &str, after_word: bool) -> Option<(String, usize)> {
    let (raw, open) = match rest.as_bytes() {
        [b'"', ..] => (false, 0),
        _ if after_word => return None,
        [b'b', b'"', ..] => (false, 1),
        [b'r', ..] | [b'b', b'r', ..] => (true, if rest.starts_with('b') { 2 } else { 1 }),
        _ => return None,
    };
    if raw {
        let hashes = rest[open..].bytes().take_while(|&c| c == b'#').count();
        let body = open + hashes + 1;
        if rest.as_bytes().get(body - 1) != Some(&b'"') {
            return None;
        }
        let close = format!("\"{}", "#".repeat(hashes));
        let end = rest[body..].find(&close)? + body;
        return Some((rest[body..end].to_string(), end + close.len()));
    }
    let mut text = String::new();
    let mut chars = rest[open + 1..].char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((text, open + 1 + at + 1)),
            '\\' if chars.peek().is_some_and(|&(_, n)| n == '\n') => {
                while chars.peek().is_some_and(|&(_, w)| w.is_whitespace()) {
                    chars.next();
                }
            }
            '\\' => {
                text.push('\\');
                text.extend(chars.next().map(|(_, e)| e));
            }
            _ => text.push(c),
        }
    }
    None
}

/// The statements `src` (the file `file`) writes, each function's literals joined in
/// order and cut at `;`. A text opening with a `{…}` hole and a clause completes a statement whose
/// head is built elsewhere (`format!("{summary} WHERE …")`): kept, its hole standing for
/// a club's table. One opening with neither keyword nor hole (a subquery) is a fragment
/// spliced into a statement elsewhere, checked there, and left out.
fn statements(file: &str, src: &str) -> Vec<Statement> {
    let mut units: Vec<(String, Vec<String>)> = Vec::new();
    for Literal { unit, text } in literals(src) {
        let opens = completes(&text) || OPENERS.iter().any(|k| first_word(&text) == *k);
        match units.iter_mut().rev().find(|(u, _)| *u == unit) {
            Some((_, texts)) if !opens => texts.last_mut().expect("one text").push_str(&text),
            Some((_, texts)) => texts.push(text),
            None => units.push((unit, vec![text])),
        }
    }
    let mut out = Vec::new();
    for (unit, texts) in units {
        for part in texts.iter().flat_map(|t| t.split(';')) {
            let sql = part.split_whitespace().collect::<Vec<_>>().join(" ");
            if completes(&sql) || OPENERS.iter().any(|k| first_word(&sql) == *k) {
                out.push(Statement {
                    file: file.to_string(),
                    unit: unit.clone(),
                    sql,
                });
            }
        }
    }
    out
}

/// Whether `sql` is a `{…}` hole and an SQL clause after it: the tail of a statement
/// whose head is built elsewhere, not some other `format!`.
fn completes(sql: &str) -> bool {
    const CLAUSES: &[&str] = &[
        "WHERE", "AND", "JOIN", "LEFT", "CROSS", "ORDER", "GROUP", "LIMIT",
    ];
    let after = sql
        .strip_prefix('{')
        .and_then(|s| s.split_once('}'))
        .map(|(_, s)| s);
    after.is_some_and(|s| CLAUSES.contains(&first_word(s)))
}

/// The first word of `text` (after blanks).
fn first_word(text: &str) -> &str {
    let text = text.trim_start();
    &text[..text.bytes().take_while(|&c| is_word(c)).count()]
}

/// A piece of SQL text, as far as scoping reads it.
#[derive(Debug, PartialEq)]
enum Token<'s> {
    /// A word: keyword, name, number.
    Word(&'s str),
    /// A bound parameter, `$1` or a hole for one, `${id}`, `${}`.
    Param,
    /// A `format!` hole, `{table}`, `{}`.
    Hole(&'s str),
    /// Any other character.
    Punct(char),
}

/// `sql` cut into [`Token`]s (quoted text kept as punctuation, enough here).
fn tokens(sql: &str) -> Vec<Token<'_>> {
    let (b, mut out, mut i) = (sql.as_bytes(), Vec::new(), 0);
    while i < b.len() {
        let rest = &sql[i..];
        let hole = |r: &str| r.find('}').map_or(r.len(), |e| e + 1);
        let (token, len) = match b[i] {
            c if c.is_ascii_whitespace() => (None, 1),
            b'$' if rest[1..].starts_with('{') => (Some(Token::Param), 1 + hole(&rest[1..])),
            b'$' => (
                Some(Token::Param),
                1 + rest[1..].bytes().take_while(u8::is_ascii_digit).count(),
            ),
            b'{' => (Some(Token::Hole(&rest[..hole(rest)])), hole(rest)),
            c if is_word(c) => {
                let len = rest.bytes().take_while(|&c| is_word(c)).count();
                (Some(Token::Word(&rest[..len])), len)
            }
            _ => {
                let c = rest.chars().next().expect("a character");
                (Some(Token::Punct(c)), c.len_utf8())
            }
        };
        out.extend(token);
        i += len;
    }
    out
}

/// The tables `sql` reads or writes: the names after `FROM`, `JOIN`, `INTO`, `UPDATE`, `COPY`,
/// and a `{…}` hole there as a table the text does not name.
fn tables<'s>(tokens: &[Token<'s>]) -> Vec<&'s str> {
    tokens
        .windows(2)
        .filter_map(|w| match w {
            [
                Token::Word("FROM" | "JOIN" | "INTO" | "UPDATE" | "COPY"),
                Token::Word(t) | Token::Hole(t),
            ] => Some(*t),
            _ => None,
        })
        .collect()
}

/// Whether `sql` is held to rows of one club or session: a key column compared to a bound
/// parameter, or an insert of bound values only.
fn scoped(tokens: &[Token<'_>]) -> bool {
    let has = |word: &str| tokens.contains(&Token::Word(word));
    if has("INSERT") && has("VALUES") && !has("SELECT") {
        return true;
    }
    let plain: Vec<&Token<'_>> = tokens
        .iter()
        .filter(|t| !matches!(t, Token::Hole(_)))
        .collect();
    plain.iter().enumerate().any(|(i, t)| {
        let key = matches!(t, Token::Word(w) if *w == "id" || w.ends_with("_id"));
        let next = &plain[i + 1..];
        // A list built in a loop may open with its separator (`IN (` then `, $1`).
        let listed = |rest: &[&Token<'_>]| {
            let first = rest.iter().find(|t| ***t != Token::Punct(','));
            first.is_some_and(|t| **t == Token::Param)
        };
        key && match next {
            [Token::Punct('='), Token::Param, ..] => true,
            [Token::Word("IN"), Token::Punct('('), rest @ ..] => listed(rest),
            [
                Token::Punct('='),
                Token::Word("ANY"),
                Token::Punct('('),
                Token::Param,
                ..,
            ] => true,
            _ => false,
        }
    })
}

/// The statements of the sources under `root` that touch a club's table without being
/// [`scoped`]: the allowed ones too, the caller sorts them.
fn unscoped(root: &Path) -> (Vec<Statement>, usize) {
    let mut all = Vec::new();
    for path in sources(root) {
        let src = std::fs::read_to_string(&path).expect("a source file");
        let file = path
            .strip_prefix(root)
            .expect("under the root")
            .display()
            .to_string();
        all.extend(statements(&file, &src));
    }
    let count = all.len();
    all.retain(|s| reaches_every_club(&s.sql));
    (all, count)
}

/// Whether `sql` touches a club's table (or one its text does not name) unscoped, or
/// copies the whole database (`VACUUM INTO`).
fn reaches_every_club(sql: &str) -> bool {
    if first_word(sql) == "VACUUM" {
        return true;
    }
    let tokens = tokens(sql);
    let club = completes(sql)
        || tables(&tokens)
            .iter()
            .any(|t| t.starts_with('{') || CLUB_TABLES.contains(t));
    club && !scoped(&tokens)
}

/// The crate's root, where src/ and migrations/ are.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_query_of_the_store_starts_from_one_club_or_session() {
    let (found, count) = unscoped(&root());
    // A reader that found (almost) nothing would pass everything.
    assert!(count > 100, "only {count} statements read from the sources");
    let allowed = |s: &Statement| ALLOWED.iter().any(|a| a.0 == s.file && a.1 == s.unit);
    let crossing: Vec<String> = found
        .iter()
        .filter(|s| !allowed(s))
        .map(|s| format!("{} fn {}: {}", s.file, s.unit, s.sql))
        .collect();
    assert!(
        crossing.is_empty(),
        "queries reaching every club's rows, neither bound to a club or session id nor \
         allowed (docs/postgres.md, \"Past one primary\"):\n{}",
        crossing.join("\n")
    );
    let stale: Vec<_> = ALLOWED
        .iter()
        .filter(|a| !found.iter().any(|s| a.0 == s.file && a.1 == s.unit))
        .collect();
    assert!(
        stale.is_empty(),
        "allowed but now scoped or gone, drop them: {stale:?}"
    );
}

#[test]
fn every_table_the_migrations_create_is_a_clubs_or_the_directorys() {
    let mut created = BTreeSet::new();
    for engine in ["sqlite", "postgres"] {
        for entry in std::fs::read_dir(root().join("migrations").join(engine)).expect("migrations")
        {
            let sql =
                std::fs::read_to_string(entry.expect("an entry").path()).expect("a migration");
            let upper = sql.to_uppercase();
            for (at, _) in upper.match_indices("CREATE TABLE ") {
                let rest = sql[at + 13..].trim_start();
                let rest = rest.strip_prefix("IF NOT EXISTS ").unwrap_or(rest);
                let name = &rest[..rest.bytes().take_while(|&c| is_word(c)).count()];
                created.insert(name.to_string());
            }
        }
    }
    assert!(
        created.contains("sessions"),
        "the migrations were read: {created:?}"
    );
    let unsorted: Vec<_> = created
        .iter()
        .filter(|t| !CLUB_TABLES.contains(&t.as_str()))
        .collect();
    assert!(
        unsorted.is_empty(),
        "tables neither a club's nor the directory's: {unsorted:?}"
    );
}

#[test]
fn a_query_over_every_club_is_found_in_each_way_sql_is_written() {
    let src = r####"
/// Doc: "SELECT * FROM events"
pub async fn listed(conn: &mut impl Connected) -> Result<(), sqlx::Error> {
    let sql = match conn.engine() {
        Engine::Sqlite => "SELECT id FROM sessions \
                           WHERE game = $1",
        Engine::Postgres => r#"SELECT id FROM sessions WHERE game = $1"#,
    };
    let c = '"'; let d = '\'';
    sqlx::query(concat!("DELETE FROM seats ", "WHERE player = $1")).await;
    sqlx::query("SELECT 1 FROM events WHERE session_id = $1").await;
    let mut sql = String::from("INSERT INTO postings (a) SELECT a FROM postings");
    sql.push_str("; UPDATE people SET x = 1 WHERE id IN (");
    let _ = write!(sql, "{}${i}", "");
    sql.push_str(")");
    format!("SELECT COUNT(*) FROM {table}");
    format!("{summary} WHERE s.club_id = $1");
    format!("{summary} WHERE s.game = $1")
}
"####;
    let found: Vec<String> = statements("f.rs", src)
        .into_iter()
        .filter(|s| reaches_every_club(&s.sql))
        .map(|s| format!("{}: {}", s.unit, s.sql))
        .collect();
    assert_eq!(
        found,
        [
            "listed: SELECT id FROM sessions WHERE game = $1",
            "listed: SELECT id FROM sessions WHERE game = $1",
            "listed: DELETE FROM seats WHERE player = $1",
            "listed: INSERT INTO postings (a) SELECT a FROM postings",
            "listed: SELECT COUNT(*) FROM {table}",
            "listed: {summary} WHERE s.game = $1",
        ]
    );
}
