//! The case base: a TOML file (schema in [`schema`], documented in
//! `casebase/README.md`), loaded with errors that name the file and line, and
//! changed under a lock (see [`lock`]) by atomic replacement so that it is
//! never half-written and no concurrent change is lost.

pub mod chunks;
mod fast;
pub mod file;
pub mod legacy;
pub mod lock;
pub mod matrix;
pub mod merge;
pub mod schema;

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};

pub use schema::{Case, CaseBase, FoundBy, Outcome, Provenance, VERSION};

use crate::error::Error;

/// Environment variable read by [`save`]: milliseconds to wait between writing
/// the temporary file and renaming it over the case base. A testing aid for
/// killing the reasoner in the middle of a save; unset in normal use.
pub const PAUSE_BEFORE_RENAME_ENV: &str = "REASONER_SAVE_PAUSE_MS";

impl CaseBase {
    /// An empty case base of the current version.
    pub fn new() -> CaseBase {
        CaseBase {
            version: VERSION,
            cases: Vec::new(),
            learned: None,
            source: None,
            header: None,
        }
    }

    pub fn find(&self, name: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.name == name)
    }

    /// Parses case-base text; `path` only names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<CaseBase, Error> {
        Self::parse_plain(text, path).map(|(cb, _)| cb)
    }

    /// [`CaseBase::parse`], and whether `text` is of the plain form
    /// [`chunks::parse`] reads (a prelude, then `[[case]]` tables) and of
    /// the current version: one to which appending a `[[case]]` table adds
    /// one case (see [`update`]).
    ///
    /// An older version is migrated: version 1 reads as version 2 with
    /// empty profiles and no `[learned]` table, every field kept, and is
    /// written as version 2 at its first change (never by appending to the
    /// old text, which would leave `version = 1` above version-2 cases).
    fn parse_plain(text: &str, path: &Path) -> Result<(CaseBase, bool), Error> {
        let (cb, plain) = match chunks::parse(text) {
            Some(cb) => (cb, true),
            None => (Self::parse_whole(text, path)?, false),
        };
        cb.validate(text, path, 0)?;
        let current = cb.version == VERSION;
        let cb = CaseBase {
            header: leading_comments(text),
            version: VERSION,
            ..cb
        };
        Ok((cb, plain && current))
    }

    /// Parses the whole text as one TOML document: slower than
    /// [`chunks::parse`] on a large case base, but where that gives up,
    /// this reads the file as TOML does and names an error's line.
    fn parse_whole(text: &str, path: &Path) -> Result<CaseBase, Error> {
        toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_column(text, s.start))
                .unwrap_or((1, 1));
            Error::CaseBaseSyntax {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().trim().replace('\n', "; "),
            }
        })
    }

    /// Checks what the schema alone cannot: the version, unique names and
    /// sensible parameter values, of the cases from `first` on (those
    /// before, checked already, only give their names to clash with).
    /// Errors point at the case's `name` line of `text`.
    fn validate(&self, text: &str, path: &Path, first: usize) -> Result<(), Error> {
        let at = |line: usize, message: String| Error::CaseBaseSyntax {
            path: path.to_path_buf(),
            line,
            column: 1,
            message,
        };
        if !(1..=VERSION).contains(&self.version) {
            return Err(at(
                find_line(text, "version", None, 0),
                format!(
                    "case-base version {} is not supported (this reasoner reads version {VERSION})",
                    self.version
                ),
            ));
        }
        // One pass with a set of the names seen: a line is looked up only
        // for an error, as a search of the whole text per case made loading
        // quadratic in the cases (issue 44).
        let mut seen: HashSet<&str> = HashSet::with_capacity(self.cases.len());
        let (checked, cases) = self.cases.split_at(first.min(self.cases.len()));
        seen.extend(checked.iter().map(|c| c.name.as_str()));
        for case in cases {
            let again = !seen.insert(case.name.as_str());
            let line = || find_line(text, "name", Some(&case.name), usize::from(again));
            if case.name.trim().is_empty() {
                return Err(at(line(), "a case needs a non-empty name".to_string()));
            }
            if again {
                return Err(at(line(), format!("duplicate case name {:?}", case.name)));
            }
            sbp_protocol::ranges::weight()
                .check(case.params.weight)
                .map_err(|m| at(line(), format!("case {:?}: {m}", case.name)))?;
            check_values(case).map_err(|(key, m)| {
                at(
                    key_line(text, line(), &key),
                    format!("case {:?}: {m}", case.name),
                )
            })?;
        }
        Ok(())
    }

    /// The first setting TOML cannot hold, as a message: TOML integers stop
    /// at `i64::MAX`, while a declared range (the space-value cutoff's) may
    /// reach `u64::MAX`. [`save`] refuses such a case base before writing.
    pub fn beyond_toml(&self) -> Option<String> {
        beyond_toml(&self.cases)
    }

    /// The case base as TOML text, under its header (see
    /// [`CaseBase::beyond_toml`] for what it cannot hold).
    pub fn to_toml(&self) -> String {
        let body = chunks::to_string(self).expect("a case base serializes to TOML");
        let header = self.header.as_deref().unwrap_or(DEFAULT_HEADER);
        format!("{header}{body}")
    }

    /// Checks every case's parameters against the solver's declarations
    /// (`Space::check_setting`): a key no option or pruning has, or a value
    /// out of its range, is an error at the key's line, as loading names
    /// other errors (loading cannot check these: the solver is not asked
    /// until a cycle starts).
    pub fn check_against(&self, space: &crate::space::Space) -> Result<(), Error> {
        for case in &self.cases {
            let h = &case.params.heuristic;
            if space.heuristic(h).is_none() {
                let known: Vec<&str> = space.heuristics.iter().map(|i| i.name.as_str()).collect();
                let m = format!(
                    "case {:?}: unknown heuristic '{}'; the solver has {} (`solver heuristics`)",
                    case.name,
                    h.name(),
                    known.join(", ")
                );
                return Err(self.error_at(case, "heuristic", m));
            }
            for (key, value) in case.params.settings.iter() {
                space
                    .check_setting(&case.params.heuristic, key, value)
                    .map_err(|m| self.error_at(case, key, format!("case {:?}: {m}", case.name)))?;
            }
        }
        Ok(())
    }

    /// An error about `key` of `case` found after loading: at its line of
    /// the file the case base was loaded from (read again to find it), or
    /// naming the case alone for a case base that was not loaded from one.
    fn error_at(&self, case: &Case, key: &str, message: String) -> Error {
        let Some(path) = &self.source else {
            return Error::Usage(format!("case base: {message}"));
        };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let name_line = find_line(&text, "name", Some(&case.name), 0);
        Error::CaseBaseSyntax {
            path: path.clone(),
            line: key_line(&text, name_line, key),
            column: 1,
            message,
        }
    }

    /// Adds a case or replaces the one with the same name.
    pub fn upsert(&mut self, case: Case) {
        match self.cases.iter_mut().find(|c| c.name == case.name) {
            Some(slot) => *slot = case,
            None => self.cases.push(case),
        }
    }
}

/// [`CaseBase::beyond_toml`] of some cases.
fn beyond_toml(cases: &[Case]) -> Option<String> {
    cases.iter().find_map(|case| {
        case.params.settings.iter().find_map(|(key, value)| match value {
            crate::params::Value::Whole(v) if *v > i64::MAX as u64 => Some(format!(
                "case {:?}: {key} = {v} cannot be stored: a case base holds whole numbers up to {} (TOML's integers)",
                case.name,
                i64::MAX
            )),
            _ => None,
        })
    })
}

/// Reads and parses a case-base file.
pub fn load(path: &Path) -> Result<CaseBase, Error> {
    let text = read_text(path)?;
    let cb = CaseBase::parse(&text, path).map_err(|e| match looks_like_a_puzzle(&text) {
        true => Error::CaseBase {
            path: path.to_path_buf(),
            message: "this is a puzzle, not a case base: the puzzle comes first and the \
                      case base after --casebase (`reasoner solve PUZZLE --casebase FILE`; \
                      without --casebase the bundled seed case base is used)"
                .to_string(),
        },
        false => e,
    })?;
    Ok(CaseBase {
        source: Some(path.to_path_buf()),
        ..cb
    })
}

/// Whether text that failed to read as a case base is a puzzle instead: a
/// native puzzle's first line that is neither blank nor a `%` comment is
/// `!` (docs/format.md), which no TOML file has.
fn looks_like_a_puzzle(text: &str) -> bool {
    text.lines()
        .map(str::trim_end)
        .find(|l| !l.is_empty() && !l.starts_with('%'))
        .is_some_and(|l| l == "!")
}

/// The seed case base bundled with the reasoner (`casebase/seed.toml`,
/// compiled in), for `reasoner solve` without `--casebase`.
pub fn bundled_seed() -> Result<CaseBase, Error> {
    const SEED: &str = include_str!("../../../casebase/seed.toml");
    CaseBase::parse(SEED, Path::new("casebase/seed.toml (bundled)"))
}

/// Bytes a case-base file may hold: a case takes a few hundred, so a larger
/// file (or an endless one such as `/dev/zero`) is refused before it fills
/// memory.
pub const MAX_CASEBASE_BYTES: u64 = 256 << 20;

/// Reads a text file of at most [`MAX_CASEBASE_BYTES`]; bytes that are not
/// UTF-8 are an error at their line and column.
pub fn read_text(path: &Path) -> Result<String, Error> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CASEBASE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_CASEBASE_BYTES {
        return Err(Error::CaseBase {
            path: path.to_path_buf(),
            message: format!(
                "the file holds more than {MAX_CASEBASE_BYTES} bytes: no case base is that large"
            ),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let good = e.utf8_error().valid_up_to();
        let before = String::from_utf8_lossy(&bytes[..good]);
        let (line, column) = line_column(&before, before.len());
        Error::CaseBaseSyntax {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "byte 0x{:02x} is not UTF-8; case bases are UTF-8 text (convert it, e.g. with iconv)",
                bytes[good]
            ),
        }
    })
}

/// Checks a case's feature ranges (finite numbers) and its SHA-256
/// (64 hex digits); an error is the offending key (its line is searched from
/// the case's `name` line, only then) and what is wrong.
fn check_values(case: &Case) -> Result<(), (String, String)> {
    for (name, r) in &case.features.0 {
        // low > high is allowed: the thesis's way of writing "unknown".
        if !(r.lo.is_finite() && r.hi.is_finite()) {
            return Err((
                name.clone(),
                format!("feature {name} must be two finite numbers [low, high], got {r}"),
            ));
        }
    }
    if let Some(r) = &case.params.variant {
        check_recipe(r).map_err(|(key, m)| (key.to_string(), format!("variant: {m}")))?;
    }
    if let Some(t) = &case.outcome.found_at {
        if !is_utc_time(t) {
            return Err((
                "found_at".to_string(),
                format!("found_at is a UTC time YYYY-MM-DDTHH:MM:SSZ (as the reasoner writes it), got {t:?}"),
            ));
        }
    }
    if let Some(h) = &case.provenance.sha256 {
        if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err((
                "sha256".to_string(),
                format!("sha256 must be 64 hexadecimal digits (as sha256sum prints), got {h:?}"),
            ));
        }
    }
    Ok(())
}

/// Whether `t` reads `YYYY-MM-DDTHH:MM:SSZ` with each field in its range.
fn is_utc_time(t: &str) -> bool {
    let b = t.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(|_| t[r].parse::<u32>().unwrap_or(u32::MAX))
    };
    let shape = b.len() == 20
        && [
            (4, b'-'),
            (7, b'-'),
            (10, b'T'),
            (13, b':'),
            (16, b':'),
            (19, b'Z'),
        ]
        .iter()
        .all(|&(i, c)| b[i] == c);
    let fields = [
        digits(5..7).is_some_and(|m| (1..=12).contains(&m)),
        digits(8..10).is_some_and(|d| (1..=31).contains(&d)),
        digits(11..13).is_some_and(|h| h < 24),
        digits(14..16).is_some_and(|m| m < 60),
        digits(17..19).is_some_and(|s| s < 61),
        digits(0..4).is_some(),
    ];
    shape && fields.iter().all(|&ok| ok)
}

/// What is wrong with a variant recipe, and at which key: the numbers the
/// variant phase can use (its `pick` and `fix` are checked as they are read).
fn check_recipe(r: &crate::params::Recipe) -> Result<(), (&'static str, String)> {
    use crate::params::Pick;
    if r.every == 0 {
        return Err((
            "every",
            "every is a whole number from 1 (a subgoal after every N moves), got 0".into(),
        ));
    }
    if r.remove == 0 && r.pick != Pick::Merge {
        return Err((
            "remove",
            format!(
                "remove is at least 1 with pick = {:?}, got 0",
                r.pick.name()
            ),
        ));
    }
    Ok(())
}

/// The header of a case base that had none of its own.
const DEFAULT_HEADER: &str =
    "# Case base of the sliding-block reasoner; schema: casebase/README.md\n";

/// The comment lines (and blank lines among them) `text` begins with, up to
/// its first line of TOML; none when it begins with TOML.
fn leading_comments(text: &str) -> Option<String> {
    let mut header = String::new();
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !(t.starts_with('#') || t.is_empty()) {
            break;
        }
        header.push_str(line);
    }
    header.contains('#').then_some(header)
}

/// The line of the first `key = ...` from a case's `name` line on (that
/// line itself when there is none).
fn key_line(text: &str, name_line: usize, key: &str) -> usize {
    text.lines()
        .enumerate()
        .skip(name_line.saturating_sub(1))
        .find(|(_, l)| l.split_once('=').is_some_and(|(k, _)| k.trim() == key))
        .map(|(i, _)| i + 1)
        .unwrap_or(name_line)
}

/// Reads a case base, or an empty one when the file does not exist: the
/// read of a case base the process means to change (`solve --retain`,
/// `casebase add`). The text and cases are kept, so that [`update`] need not
/// parse them again under the lock when the file is still the same; the
/// cases are shared with the caller, who lets go of them before `update`
/// so that it takes them without a copy (else it copies them).
pub fn load_or_new(path: &Path) -> Result<Arc<CaseBase>, Error> {
    if !path.exists() {
        return Ok(Arc::new(CaseBase::new()));
    }
    let text = read_text(path)?;
    let (cb, plain) = CaseBase::parse_plain(&text, path)?;
    let cb = Arc::new(CaseBase {
        source: Some(path.to_path_buf()),
        ..cb
    });
    if let (Ok(target), Ok(mut kept)) = (file::target(path), READ_TO_CHANGE.lock()) {
        *kept = Some(ReadToChange {
            target,
            text,
            plain,
            cases: Arc::clone(&cb),
        });
    }
    Ok(cb)
}

/// A case base read by [`load_or_new`], with the text it was parsed from.
struct ReadToChange {
    target: std::path::PathBuf,
    text: String,
    /// Whether `text` is of the plain form ([`CaseBase::parse_plain`]).
    plain: bool,
    cases: Arc<CaseBase>,
}

/// The last case base this process read to change it.
static READ_TO_CHANGE: std::sync::Mutex<Option<ReadToChange>> = std::sync::Mutex::new(None);

/// Reads the case-base file `target` (symlinks resolved) again, under its
/// lock: when its text is the one [`load_or_new`] read, the cases read then
/// are taken as they are (parsing a 100,000-case base takes most of a
/// second, held under the lock by every writer); else, another writer
/// changed it meanwhile, and it is parsed. With the cases comes the text
/// when it is of the plain form (so that cases can be added by appending
/// their tables to it); `None` for a missing file or another form.
fn reread(target: &Path) -> Result<(CaseBase, Option<String>), Error> {
    if !target.exists() {
        return Ok((CaseBase::new(), None));
    }
    let text = read_text(target)?;
    let kept = READ_TO_CHANGE.lock().ok().and_then(|mut k| k.take());
    let (cb, plain) = match kept {
        Some(k) if k.target == target && k.text == text => {
            let cases = Arc::try_unwrap(k.cases).unwrap_or_else(|shared| (*shared).clone());
            (cases, k.plain)
        }
        _ => CaseBase::parse_plain(&text, target)?,
    };
    let cb = CaseBase {
        source: Some(target.to_path_buf()),
        ..cb
    };
    Ok((cb, plain.then_some(text)))
}

/// A case base being changed by [`update`]'s `change`. It reads as the case
/// base; the first mutable access keeps a copy of the cases as they were,
/// to tell afterwards whether they changed, while cases added at the end by
/// [`Edit::push`] (or [`Edit::upsert`] of a new name) need no copy: adding a
/// case to a 100,000-case base then neither copies nor compares them all
/// (issue 44), and the case is written by appending its table.
pub struct Edit {
    cb: CaseBase,
    /// How many cases the case base held before the change.
    old_len: usize,
    /// The case base before the change (its first `old_len` cases), kept at
    /// the first mutable access.
    before: Option<CaseBase>,
}

/// What a change did to a case base.
#[derive(Debug, PartialEq)]
enum Changed {
    Nothing,
    /// Added cases after the ones it held, which are as they were.
    Appended,
    /// Anything else.
    Other,
}

impl Edit {
    fn new(cb: CaseBase) -> Edit {
        Edit {
            old_len: cb.cases.len(),
            cb,
            before: None,
        }
    }

    /// Adds `case` after the others (names are not checked here: a clash
    /// is refused when the case base is saved).
    pub fn push(&mut self, case: Case) {
        self.cb.cases.push(case);
    }

    /// [`CaseBase::upsert`]: a case of a new name is pushed.
    pub fn upsert(&mut self, case: Case) {
        match self.cb.find(&case.name) {
            Some(_) => std::ops::DerefMut::deref_mut(self).upsert(case),
            None => self.push(case),
        }
    }

    /// What the change did: without a mutable access, the first `old_len`
    /// cases are as they were; with one, they are compared.
    fn changed(&self) -> Changed {
        let grew = self.cb.cases.len() > self.old_len;
        let Some(before) = &self.before else {
            return if grew {
                Changed::Appended
            } else {
                Changed::Nothing
            };
        };
        if self.cb == *before {
            Changed::Nothing
        } else if grew
            && self.cb.version == before.version
            && self.cb.header == before.header
            && self.cb.learned == before.learned
            && self.cb.cases[..self.old_len] == before.cases[..]
        {
            Changed::Appended
        } else {
            Changed::Other
        }
    }
}

impl std::ops::Deref for Edit {
    type Target = CaseBase;
    fn deref(&self) -> &CaseBase {
        &self.cb
    }
}

/// A mutable access keeps the case base as it was before the change (the
/// cases pushed since are not part of it).
impl std::ops::DerefMut for Edit {
    fn deref_mut(&mut self) -> &mut CaseBase {
        if self.before.is_none() {
            self.before = Some(CaseBase {
                cases: self.cb.cases[..self.old_len].to_vec(),
                source: self.cb.source.clone(),
                header: self.cb.header.clone(),
                version: self.cb.version,
                learned: self.cb.learned.clone(),
            });
        }
        &mut self.cb
    }
}

/// Changes the case base at `path` (symlinks followed) under its lock: it is
/// re-read (empty when missing), `change` edits it, and it is saved if it
/// changed or did not exist. The lock is held throughout, so concurrent
/// changes take turns. A change that only adds cases to a file of the plain
/// form is saved by [`save_appended`]; any other by [`save`].
pub fn update<T>(
    path: &Path,
    change: impl FnOnce(&mut Edit) -> Result<T, Error>,
) -> Result<T, Error> {
    let target = file::target(path)?;
    file::check_writable(&target)?;
    let _lock = lock::acquire(&target)?;
    let (cb, text) = reread(&target)?;
    let mut edit = Edit::new(cb);
    let value = change(&mut edit)?;
    match (edit.changed(), text) {
        (Changed::Nothing, _) if target.exists() => {}
        (Changed::Appended, Some(text)) => save_appended(&target, text, &edit.cb, edit.old_len)?,
        _ => save(&target, &edit.cb)?,
    }
    Ok(value)
}

/// Saves `cb`, whose cases from `old_len` on were added to those the file's
/// `text` (of the plain form) holds, as `text` and the new cases' tables
/// after it: the same file as [`save`] writes when `text` was written by it,
/// at the cost of the new cases alone (writing, reading back and checking a
/// 100,000-case base took seconds, issue 44). The new tables are read back on
/// their own and their names checked against all others, as `save` checks
/// the whole file; the file is replaced as `save` replaces it. Should the new
/// tables not read back as the cases, `save` writes (or refuses) it all.
fn save_appended(target: &Path, text: String, cb: &CaseBase, old_len: usize) -> Result<(), Error> {
    let added = &cb.cases[old_len..];
    if let Some(message) = beyond_toml(added) {
        return Err(Error::CaseBase {
            path: target.to_path_buf(),
            message,
        });
    }
    let tail = match chunks::cases_to_string(added) {
        Ok(tail) if chunks::read_cases(&tail).as_deref() == Some(added) => tail,
        _ => return save(target, cb),
    };
    let mut text = text;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&tail);
    cb.validate(&text, target, old_len)?;
    write_text(target, &text)
}

/// Writes the case base by atomic replacement: a temporary file beside the
/// target (a symlink's target, not the symlink) is written with the old
/// file's mode, flushed to disk, and renamed over the target; then the folder
/// is flushed. Killed at any moment, the file holds the old or the new case
/// base, never a mix (a stray temporary file may be left behind). Callers
/// that re-read before saving hold the lock: use [`update`].
pub fn save(path: &Path, cb: &CaseBase) -> Result<(), Error> {
    if let Some(message) = cb.beyond_toml() {
        return Err(Error::CaseBase {
            path: path.to_path_buf(),
            message,
        });
    }
    let text = cb.to_toml();
    // What is written must read back: never replace a good file with one the
    // reasoner would reject. Read part by part, it is checked without a
    // second copy of the cases (the whole text is parsed, for its error,
    // only when that fails).
    if chunks::reads_back(&text) {
        cb.validate(&text, path, 0)?;
    } else {
        CaseBase::parse(&text, path)?;
    }
    write_text(path, &text)
}

/// Replaces the case base at `path` (a symlink's target) by `text`, as
/// [`save`] describes, waiting [`PAUSE_BEFORE_RENAME_ENV`] before the rename.
fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    let target = file::target(path)?;
    let pause = || {
        if let Some(ms) = std::env::var(PAUSE_BEFORE_RENAME_ENV)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
    };
    sbp_outfile::replace_file(
        &target,
        file::permissions_for(&target),
        text.as_bytes(),
        pause,
    )
    .map_err(|e| Error::CaseBase {
        path: target.clone(),
        message: e.to_string(),
    })?;
    Ok(())
}

/// SHA-256 of a file's bytes as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let digest = Sha256::digest(&bytes);
    Ok(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// 1-based line and column of a byte offset.
/// `base`, or `base (2)`, `base (3)`, ... : the first that `taken` does not
/// claim. How a case keeps its own name beside another of the same name
/// (retain, legacy import, merge).
pub fn unique_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut name = base.to_string();
    let mut k = 2;
    while taken(&name) {
        name = format!("{base} ({k})");
        k += 1;
    }
    name
}

pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, before[line_start..].chars().count() + 1)
}

/// Line (1-based) of the `occurrence`-th line `key = ...` whose value is the
/// TOML string `value` (any value when `None`); 1 when not found.
fn find_line(text: &str, key: &str, value: Option<&str>, occurrence: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let Some((k, v)) = l.split_once('=') else {
                return false;
            };
            k.trim() == key
                && value.is_none_or(|want| {
                    toml::from_str::<toml::Value>(&format!("v = {}", v.trim()))
                        .ok()
                        .and_then(|t| t.get("v").and_then(|s| s.as_str().map(str::to_string)))
                        .as_deref()
                        == Some(want)
                })
        })
        .nth(occurrence)
        .map(|(i, _)| i + 1)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{Features, Range};
    use crate::params::ParamSet;

    /// An endless file (`/dev/zero`) given as the case base is refused at
    /// a fixed size, where it used to fill memory.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_case_base_is_refused_at_a_fixed_size() {
        let err = load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(
            err.starts_with("/dev/zero: the file holds more than 268435456 bytes"),
            "{err}"
        );
    }

    pub(crate) fn case(name: &str) -> Case {
        let mut features = Features::default();
        features.insert("num_of_spaces", Range::point(2.0));
        features.insert("search_space_log10", Range::new(4.0, 4.5));
        Case {
            name: name.to_string(),
            comment: None,
            provenance: Provenance {
                puzzle: Some("puzzles/x.txt".to_string()),
                sha256: Some("ab".repeat(32)),
            },
            features,
            params: ParamSet::default().with("space_value", crate::params::Value::Whole(14)),
            outcome: Outcome {
                steps: Some(116),
                moves: Some(81),
                positions_examined: Some(25_000),
                found_by: FoundBy::CaseReuse,
                found_at: Some("2026-01-01T00:00:00Z".to_string()),
            },
            profile: Vec::new(),
        }
    }

    /// [`case`] with a profile of three trials (one of a variant recipe,
    /// so that the trial's parameters hold a table of their own).
    pub(crate) fn profiled(name: &str) -> Case {
        use sbp_protocol::Status;
        let mut c = case(name);
        let trial = |params: ParamSet, status, positions, length| schema::Trial {
            params,
            status,
            positions,
            limit: Some(200_000),
            seconds: Some(0.25),
            length,
        };
        let astar = ParamSet {
            algorithm: crate::params::Algorithm::Astar,
            weight: 5.0,
            ..ParamSet::default()
        };
        let mut variant = astar.clone();
        variant.variant = Some(crate::params::Recipe {
            pick: crate::params::Pick::Most,
            remove: 2,
            every: 1,
            fix: crate::params::Fix::Master,
        });
        c.profile = vec![
            trial(c.params.clone(), Status::Solved, 25_000, Some(116)),
            trial(astar, Status::LimitReached, 200_000, None),
            schema::Trial {
                limit: None,
                seconds: None,
                ..trial(variant, Status::NoSolution, 7, None)
            },
        ];
        c
    }

    /// A `[learned]` table as `reasoner learn` would write it.
    pub(crate) fn learned() -> schema::Learned {
        schema::Learned {
            weights: [("num_of_spaces", 1.5), ("search_space_log10", 0.25)]
                .map(|(k, w)| (k.to_string(), w))
                .into(),
            k: 5,
            cases: 2,
            fitted_at: Some("2026-12-02T12:00:00Z".to_string()),
        }
    }

    /// A version-1 case base (the seed as it was written before version 2:
    /// comments, provenance, features) reads as version 2 without loss:
    /// saved and read again, it holds the same cases, every field kept,
    /// and says `version = 2`.
    #[test]
    fn a_version_1_case_base_migrates_to_version_2_without_loss() {
        let seed = include_str!("../../../casebase/seed.toml");
        let v1 = seed.replacen("version = 2\n", "version = 1\n", 1);
        assert!(v1.contains("version = 1\n"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.toml");
        std::fs::write(&path, &v1).unwrap();
        let old: CaseBase = toml::from_str(&v1).unwrap();
        assert_eq!(old.version, 1);
        let cb = load(&path).unwrap();
        assert_eq!(cb.version, VERSION);
        assert_eq!(cb.cases, old.cases);
        assert!(cb.cases.iter().all(|c| c.profile.is_empty()) && cb.learned.is_none());
        // A change that only adds a case rewrites the file as version 2
        // instead of appending under `version = 1`.
        let mut added = profiled("added");
        added.provenance.sha256 = Some("cd".repeat(32));
        update(&path, |e| {
            e.push(added.clone());
            Ok(())
        })
        .unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.contains("\nversion = 2\n") && !written.contains("version = 1"));
        let again = load(&path).unwrap();
        assert_eq!(again.cases[..old.cases.len()], old.cases[..]);
        assert_eq!(again.cases.last(), Some(&added));
        let first = &again.cases[0];
        assert!(first
            .comment
            .as_deref()
            .unwrap()
            .starts_with("earned by experiments/"));
        assert_eq!(first.comment, old.cases[0].comment);
        assert_eq!(first.provenance, old.cases[0].provenance);
        assert!(first.provenance.sha256.is_some());
    }

    /// Cases added to a case base with a `[learned]` table are appended
    /// after it when it comes before the cases (as the reasoner writes it),
    /// and the file is rewritten when it comes after them (by hand): both
    /// read back with the fit and every case.
    #[test]
    fn appending_cases_keeps_the_learned_table_valid() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.learned = Some(learned());
        cb.cases.push(profiled("one"));
        save(&path, &cb).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        assert!(
            before.find("[learned]") < before.find("[[case]]"),
            "{before}"
        );
        let mut two = profiled("two");
        two.provenance.sha256 = Some("cd".repeat(32));
        let push = |case: &Case| {
            update(&path, |e| {
                e.push(case.clone());
                Ok(())
            })
            .unwrap()
        };
        push(&two);
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.starts_with(&before), "appended, not rewritten");
        let read = load(&path).unwrap();
        assert_eq!(read.learned, cb.learned);
        assert_eq!(read.cases, [profiled("one"), two.clone()]);
        // `[learned]` after the cases: valid TOML, not the plain form.
        let body = &before[before.find("[[case]]").unwrap()..];
        let learned_part =
            &before[before.find("[learned]").unwrap()..before.find("[[case]]").unwrap()];
        std::fs::write(&path, format!("version = 2\n\n{body}\n{learned_part}")).unwrap();
        assert!(chunks::parse(&std::fs::read_to_string(&path).unwrap()).is_none());
        push(&two);
        let read = load(&path).unwrap();
        assert_eq!(read.learned, cb.learned);
        assert_eq!(read.cases, [profiled("one"), two]);
    }

    #[test]
    fn a_pdb_case_round_trips_with_its_memory() {
        let mut cb = CaseBase::new();
        let mut pdb = case("pdb");
        pdb.params = ParamSet {
            algorithm: crate::params::Algorithm::Astar,
            heuristic: "pdb".into(),
            ..ParamSet::default()
        }
        .with("pdb_memory", crate::params::Value::Whole(64 << 20));
        cb.upsert(pdb.clone());
        let text = cb.to_toml();
        assert!(text.contains("heuristic = \"pdb\""), "{text}");
        assert!(text.contains("pdb_memory = 67108864"), "{text}");
        let back = CaseBase::parse(&text, Path::new("x.toml")).unwrap();
        assert_eq!(back, cb);
        let params = &back.cases[0].params;
        assert_eq!(
            params.solver_args()[..6].join(" "),
            "--algorithm astar --heuristic pdb --weight 1"
        );
        assert!(params
            .solver_args()
            .join(" ")
            .contains("--pdb-memory 67108864"));
    }

    /// A whole number past TOML's integers (a space-value cutoff the solver
    /// accepts up to u64::MAX) is refused by `save`, naming case and key,
    /// and the file on disk is left as it was.
    #[test]
    fn a_setting_past_toml_integers_is_refused_and_nothing_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        save(&path, &cb).unwrap();
        let before = std::fs::read(&path).unwrap();
        let mut huge = case("huge");
        huge.params = huge
            .params
            .with("space_value", crate::params::Value::Whole(1 << 63));
        cb.upsert(huge);
        let err = save(&path, &cb).unwrap_err().to_string();
        assert!(
            err.contains("case \"huge\": space_value = 9223372036854775808 cannot be stored"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn round_trips_through_toml() {
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        cb.upsert(case("b"));
        let text = cb.to_toml();
        assert!(text.contains("[[case]]"), "{text}");
        assert!(text.contains("found_by = \"case-reuse\""), "{text}");
        let back = CaseBase::parse(&text, Path::new("x.toml")).unwrap();
        assert_eq!(back, cb);
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        let text = cb
            .to_toml()
            .replace("algorithm = \"bfs\"", "algorithm = \"dfs\"");
        let line = text.lines().position(|l| l.contains("\"dfs\"")).unwrap() + 1;
        let err = CaseBase::parse(&text, Path::new("cb.toml")).unwrap_err();
        match &err {
            Error::CaseBaseSyntax { line: l, .. } => assert_eq!(*l, line, "{err}"),
            other => panic!("{other}"),
        }
        assert!(
            err.to_string().starts_with(&format!("cb.toml:{line}:")),
            "{err}"
        );
        let err = CaseBase::parse("version = 1\n[[case]\n", Path::new("cb.toml")).unwrap_err();
        assert!(err.to_string().starts_with("cb.toml:2:"), "{err}");
    }

    /// A setting of a shape no parameter has is refused at its line, naming
    /// the shapes a setting may have.
    #[test]
    fn a_setting_of_the_wrong_type_names_what_was_expected() {
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        let text = cb
            .to_toml()
            .replace("space_value = 14", "space_value = { at = 14 }");
        let line = text
            .lines()
            .position(|l| l.contains("{ at = 14 }"))
            .unwrap()
            + 1;
        let err = CaseBase::parse(&text, Path::new("cb.toml")).unwrap_err();
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("cb.toml:{line}:")), "{shown}");
        assert!(
            shown.contains("expected a boolean, a number, a list of numbers or a text"),
            "{shown}"
        );
        let text = cb
            .to_toml()
            .replace("space_value = 14", "space_value = [\"x\"]");
        let err = CaseBase::parse(&text, Path::new("cb.toml")).unwrap_err();
        assert!(err.to_string().contains("expected f64"), "{err}");
    }

    #[test]
    fn duplicate_names_and_bad_values_are_rejected_with_their_line() {
        let mut cb = CaseBase::new();
        cb.cases.push(case("a"));
        cb.cases.push(case("a"));
        let text = toml::to_string(&cb).unwrap();
        let second = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with("name = "))
            .nth(1)
            .unwrap()
            .0
            + 1;
        let err = CaseBase::parse(&text, Path::new("cb.toml")).unwrap_err();
        assert!(
            err.to_string().starts_with(&format!("cb.toml:{second}:")),
            "{err}"
        );
        let mut bad = CaseBase::new();
        let mut c = case("w");
        c.params.weight = -1.0;
        bad.cases.push(c);
        let err =
            CaseBase::parse(&toml::to_string(&bad).unwrap(), Path::new("cb.toml")).unwrap_err();
        assert!(err.to_string().contains("weight"), "{err}");
        let err = CaseBase::parse("version = 7\n", Path::new("cb.toml")).unwrap_err();
        assert!(err.to_string().starts_with("cb.toml:1:"), "{err}");
    }

    #[test]
    fn save_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        save(&path, &cb).unwrap();
        cb.upsert(case("b"));
        save(&path, &cb).unwrap();
        assert_eq!(load(&path).unwrap(), cb);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["cb.toml"]);
    }

    /// `update` takes the cases `load_or_new` read only while the file is
    /// the one read: a case another writer saved meanwhile is kept.
    #[test]
    fn update_keeps_a_case_saved_after_the_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        save(&path, &cb).unwrap();
        let mut loaded = (*load_or_new(&path).unwrap()).clone();
        loaded.upsert(case("b"));
        save(&path, &loaded).unwrap();
        update(&path, |cb| {
            cb.upsert(case("c"));
            Ok(())
        })
        .unwrap();
        let names = |cb: CaseBase| cb.cases.into_iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(load(&path).unwrap()), ["a", "b", "c"]);
        load_or_new(&path).unwrap();
        update(&path, |cb| {
            cb.upsert(case("d"));
            Ok(())
        })
        .unwrap();
        assert_eq!(names(load(&path).unwrap()), ["a", "b", "c", "d"]);
    }

    /// The cases of the case base at `path`, by name.
    fn names_in(path: &Path) -> Vec<String> {
        load(path)
            .unwrap()
            .cases
            .into_iter()
            .map(|c| c.name)
            .collect()
    }

    /// Adds `added` to the case base at `path` as `--retain` does: read
    /// before, pushed under the lock.
    fn append(path: &Path, added: &[&str]) -> Result<(), Error> {
        load_or_new(path)?;
        update(path, |cb| {
            for name in added {
                cb.push(case(name));
            }
            Ok(())
        })
    }

    /// Adding cases to a file of the plain form appends their tables to its
    /// text: a file `save` wrote gets the very bytes `save` would write of
    /// all the cases, and a hand-written one keeps its text (comments and
    /// all, where a whole rewrite drops them) and reads back as the cases
    /// `save` would have written. Before, every change rewrote it all.
    #[test]
    fn adding_cases_appends_their_tables_to_the_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        save(&path, &cb).unwrap();
        append(&path, &["b", "c"]).unwrap();
        let full = dir.path().join("full.toml");
        save(&full, &load(&path).unwrap()).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&full).unwrap());
        assert_eq!(names_in(&path), ["a", "b", "c"]);
        // Hand-written, its last line without a line end, changed by a
        // process that did not read it before (parsed under the lock).
        let text = include_str!("../../../casebase/example.toml").trim_end();
        std::fs::write(&path, text).unwrap();
        update(&path, |cb| {
            cb.upsert(case("new"));
            Ok(())
        })
        .unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.starts_with(&format!("{text}\n\n[[case]]\nname = \"new\"")));
        let mut expected = CaseBase::parse(text, &path).unwrap();
        expected.upsert(case("new"));
        save(&full, &expected).unwrap();
        assert_eq!(load(&path).unwrap(), load(&full).unwrap());
    }

    /// A file not of the plain form is rewritten whole: cases written
    /// inline (`case = [...]`, to which a `[[case]]` table cannot be
    /// appended), tables the split does not see (`[[ case ]]`).
    #[test]
    fn a_file_of_another_form_is_rewritten_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let inline = "version = 1\ncase = [{ name = \"inline\", features = {}, \
                      params = { algorithm = \"bfs\" }, outcome = { found_by = \"hand-tuned\" } }]\n";
        let spaced = toml::to_string(&CaseBase {
            cases: vec![case("spaced")],
            ..CaseBase::new()
        })
        .unwrap()
        .replace("[[case]]", "[[ case ]]");
        for (text, first) in [(inline.to_string(), "inline"), (spaced, "spaced")] {
            std::fs::write(&path, &text).unwrap();
            assert_eq!(names_in(&path), [first]);
            append(&path, &["b"]).unwrap();
            assert_eq!(names_in(&path), [first, "b"]);
            let written = std::fs::read_to_string(&path).unwrap();
            assert!(!written.starts_with(&text), "{written}");
            assert_eq!(written.matches("\n[[case]]\n").count(), 2, "{written}");
        }
    }

    /// An added case whose name another case has, before or among the
    /// added ones, is refused at its line as loading refuses it, and the
    /// file is left as it was.
    #[test]
    fn an_appended_name_that_clashes_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let mut cb = CaseBase::new();
        cb.upsert(case("a"));
        cb.upsert(case("b"));
        save(&path, &cb).unwrap();
        let before = std::fs::read(&path).unwrap();
        for added in [&["a"][..], &["c", "b"], &["c", "c"]] {
            let err = append(&path, added).unwrap_err().to_string();
            let clash = added
                .iter()
                .find(|n| ["a", "b"].contains(n))
                .unwrap_or(&"c");
            assert!(
                err.contains(&format!("duplicate case name {clash:?}")),
                "{err}"
            );
            assert!(err.starts_with(&format!("{}:", path.display())), "{err}");
            assert_eq!(std::fs::read(&path).unwrap(), before);
        }
    }

    /// The cases `load_or_new` shares with its caller are taken by `update`
    /// when the caller let go of them, and copied when it still holds them:
    /// either way the caller's stay as they were read.
    #[test]
    fn update_takes_the_cases_read_before_whether_or_not_still_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        append(&path, &["a"]).unwrap();
        let held = load_or_new(&path).unwrap();
        update(&path, |cb| {
            cb.push(case("b"));
            Ok(())
        })
        .unwrap();
        assert_eq!(held.cases.len(), 1);
        drop(held);
        append(&path, &["c"]).unwrap();
        assert_eq!(names_in(&path), ["a", "b", "c"]);
    }

    /// `update` tells what the change did without a copy made in advance:
    /// a mutable access that changes nothing writes nothing (the
    /// hand-written file stays as it is), and one that changes a case
    /// after another was pushed saves both changes by a whole rewrite.
    #[test]
    fn update_sees_changes_made_after_a_push() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let text = include_str!("../../../casebase/example.toml");
        std::fs::write(&path, text).unwrap();
        update(&path, |cb| {
            cb.cases.iter_mut().for_each(|_| {});
            Ok(())
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        update(&path, |cb| {
            cb.push(case("new"));
            cb.cases[0].comment = Some("changed".into());
            Ok(())
        })
        .unwrap();
        let cb = load(&path).unwrap();
        assert_eq!(cb.cases.len(), 3);
        assert_eq!(cb.cases[0].comment.as_deref(), Some("changed"));
        assert_eq!(cb.cases[2].name, "new");
    }

    #[test]
    fn the_documented_example_loads() {
        let text = include_str!("../../../casebase/example.toml");
        let cb = CaseBase::parse(text, Path::new("casebase/example.toml")).unwrap();
        assert_eq!(cb.cases.len(), 2);
        assert_eq!(
            cb.cases[1].params.settings.get("space_value"),
            Some(&crate::params::Value::Whole(45))
        );
        assert!(cb.check_against(&crate::space::tests::fixture()).is_ok());
    }

    /// A parameter the solver does not declare, or a value out of its
    /// declared range, is found when a cycle has the solver's space, and
    /// named at its line of the file as loading names other errors.
    #[test]
    fn settings_the_solver_does_not_declare_are_errors_at_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let space = crate::space::tests::fixture();
        let good = include_str!("../../../casebase/example.toml");
        for (from, to, line, says) in [
            (
                "resting = \"off\"",
                "spacevalue = 3",
                26,
                "unknown parameter 'spacevalue'",
            ),
            (
                "space_value = 45",
                "space_value = \"x\"",
                54,
                "(`space_value`) takes a whole number",
            ),
            (
                "heuristic = \"h0\"",
                "heuristic = \"foo\"",
                52,
                "unknown heuristic 'foo'; the solver has h0, ",
            ),
        ] {
            assert_eq!(good.matches(from).count(), 1, "{from}");
            std::fs::write(&path, good.replace(from, to)).unwrap();
            let cb = load(&path).unwrap();
            let err = cb.check_against(&space).unwrap_err().to_string();
            let at = format!("{}:{line}:1: case ", path.display());
            assert!(err.starts_with(&at) && err.contains(says), "{err}");
        }
        let unloaded = CaseBase::parse(&std::fs::read_to_string(&path).unwrap(), &path);
        let err = unloaded.unwrap().check_against(&space).unwrap_err();
        assert!(err.to_string().starts_with("case base: case "), "{err}");
    }

    /// A `found_at` that is not a UTC time as the reasoner writes it is
    /// refused at its line.
    #[test]
    fn found_at_must_be_a_utc_time() {
        let mut cb = CaseBase::new();
        cb.cases.push(case("t"));
        let good = toml::to_string(&cb).unwrap();
        assert!(CaseBase::parse(&good, Path::new("cb.toml")).is_ok());
        for bad in [
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-01-01 00:00:00Z",
            "2026-01-01T00:00:00",
        ] {
            let text = good.replace("2026-01-01T00:00:00Z", bad);
            let line = text.lines().position(|l| l.contains(bad)).unwrap() + 1;
            let err = CaseBase::parse(&text, Path::new("cb.toml"))
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with(&format!("cb.toml:{line}:"))
                    && err.contains("found_at is a UTC time"),
                "{bad}: {err}"
            );
        }
        assert!(is_utc_time(&crate::casebase::schema::utc_now()));
    }

    /// A variant recipe with a value `solver variant` does not know is
    /// refused at load, at its line, instead of being read as the default
    /// (`pick`) or failing only when the variant phase runs (`every = 0`).
    #[test]
    fn a_variant_recipe_with_unknown_values_is_refused_at_its_line() {
        let mut cb = CaseBase::new();
        let mut c = case("v");
        c.params.variant = Some(crate::params::Recipe {
            pick: crate::params::Pick::Most,
            remove: 1,
            every: 1,
            fix: crate::params::Fix::Master,
        });
        cb.cases.push(c);
        let good = toml::to_string(&cb).unwrap();
        assert!(CaseBase::parse(&good, Path::new("cb.toml")).is_ok());
        for (from, to, says) in [
            (
                "pick = \"most\"",
                "pick = \"foo\"",
                "unknown variant `foo`, expected one of `most`, `least`, `merge`",
            ),
            (
                "fix = \"master\"",
                "fix = \"bogus\"",
                "unknown variant `bogus`, expected `all` or `master`",
            ),
            (
                "every = 1",
                "every = 0",
                "variant: every is a whole number from 1",
            ),
            (
                "remove = 1",
                "remove = 0",
                "variant: remove is at least 1 with pick = \"most\"",
            ),
        ] {
            assert_eq!(good.matches(from).count(), 1, "{from}");
            let text = good.replace(from, to);
            let line = text.lines().position(|l| l == to).unwrap() + 1;
            let err = CaseBase::parse(&text, Path::new("cb.toml"))
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with(&format!("cb.toml:{line}:")) && err.contains(says),
                "{err}"
            );
        }
        let merge = good
            .replace("pick = \"most\"", "pick = \"merge\"")
            .replace("remove = 1", "remove = 0");
        assert!(CaseBase::parse(&merge, Path::new("cb.toml")).is_ok());
    }

    /// A hand-written case base keeps the comment lines it began with
    /// through a change; one without gets the default header.
    #[test]
    fn a_changed_case_base_keeps_its_leading_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.toml");
        let text = include_str!("../../../casebase/example.toml");
        std::fs::write(&path, text).unwrap();
        let mut cb = load(&path).unwrap();
        cb.upsert(case("new"));
        save(&path, &cb).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(header.lines().count(), 3);
        assert!(
            written.starts_with(&format!("{header}version = 2\n")),
            "{written}"
        );
        assert_eq!(load(&path).unwrap().cases.len(), 3);
        let fresh = CaseBase::parse(&CaseBase::new().to_toml(), &path).unwrap();
        assert!(fresh.to_toml().starts_with(DEFAULT_HEADER));
    }

    /// The seed case base, written by the reasoner before its parameters
    /// were declared by the solver, reads and writes back byte for byte.
    #[test]
    fn the_seed_case_base_writes_back_the_same_bytes() {
        let text = include_str!("../../../casebase/seed.toml");
        let cb = CaseBase::parse(text, Path::new("casebase/seed.toml")).unwrap();
        assert_eq!(cb.to_toml(), text);
        assert!(cb.check_against(&crate::space::tests::fixture()).is_ok());
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_column("ab\ncd", 0), (1, 1));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
    }
}
