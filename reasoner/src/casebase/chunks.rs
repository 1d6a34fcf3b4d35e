//! Reading and writing a large case base one case at a time.
//!
//! The `toml` crate builds a document of the whole file before it hands out
//! a single case: a 100,000-case base (110 MB) took seconds and about 25
//! times its size in memory (issue 44). A case base is a prelude
//! (`version = 2` and the `[learned]` table, when there is one) followed by
//! `[[case]]` tables, and no case's table can
//! reach into another's, so each part is read on its own, on every core,
//! and the cases are joined in file order. The same holds for writing.
//!
//! Splitting happens at lines that are exactly `[[case]]`. Where that
//! reading may differ from the whole file's (a prelude that holds cases of
//! its own, a `[[case]]` line inside a multi-line string, which leaves the
//! part before it unterminated, and every error), [`parse`] gives up and the
//! caller parses the whole file, whose errors name the right line.

use serde::{Deserialize, Serialize};

use super::{fast, Case, CaseBase};

/// The fewest cases a thread is given: with fewer, starting threads
/// would cost more than they save.
const MIN_CASES_PER_THREAD: usize = 2_000;

/// One `[[case]]` table (or several, if written in a way the split does
/// not recognise) read on its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    case: Vec<Case>,
}

/// What the case base holds besides its cases, written before them.
#[derive(Serialize)]
struct Prelude<'a> {
    version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    learned: Option<&'a super::schema::Learned>,
}

/// One case written on its own, as its `[[case]]` table.
#[derive(Serialize)]
struct PartRef<'a> {
    case: [&'a Case; 1],
}

/// Byte offsets of the lines that are exactly `[[case]]` (a `\r\n` line
/// end allowed).
fn case_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "[[case]]" {
            starts.push(at);
        }
        at += line.len();
    }
    starts
}

/// The case base `text` holds, read part by part; `None` where that could
/// read it differently from the whole file, or it holds an error: the
/// caller then parses the whole text, which names the error's line.
pub fn parse(text: &str) -> Option<CaseBase> {
    let (prelude, parts) = split(text)?;
    let cases = in_parallel(&parts, |part| read_part(part))?;
    Some(CaseBase {
        cases: cases.into_iter().flatten().collect(),
        ..prelude
    })
}

/// Whether [`parse`] reads `text`, without keeping the cases: each is
/// dropped once read, so that checking what is about to be written does
/// not hold a second copy of a large case base.
pub fn reads_back(text: &str) -> bool {
    split(text)
        .is_some_and(|(_, parts)| in_parallel(&parts, |part| read_part(part).map(drop)).is_some())
}

/// The prelude (read: a case base without cases) and the `[[case]]` parts
/// of `text`; `None` when the prelude does not read or holds cases.
fn split(text: &str) -> Option<(CaseBase, Vec<&str>)> {
    let starts = case_starts(text);
    let prelude_end = starts.first().copied().unwrap_or(text.len());
    let prelude: toml::Table = toml::from_str(&text[..prelude_end]).ok()?;
    if prelude.contains_key("case") {
        return None;
    }
    Some((prelude.try_into().ok()?, parts(text, &starts)))
}

/// The parts of `text` from each of `starts` to the next (the last to the
/// end).
fn parts<'t>(text: &'t str, starts: &[usize]) -> Vec<&'t str> {
    starts
        .iter()
        .zip(starts.iter().skip(1).chain([&text.len()]))
        .map(|(&a, &b)| &text[a..b])
        .collect()
}

/// The cases of `tail`, text of `[[case]]` tables alone (blank lines before
/// the first allowed), read part by part as [`parse`] reads them; `None`
/// where that fails or `tail` holds no table. How the tables appended to a
/// case base are read back on their own (`casebase::update`).
pub fn read_cases(tail: &str) -> Option<Vec<Case>> {
    let starts = case_starts(tail);
    let first = *starts.first()?;
    if !tail[..first].trim().is_empty() {
        return None;
    }
    let cases = in_parallel(&parts(tail, &starts), |part| read_part(part))?;
    Some(cases.into_iter().flatten().collect())
}

/// The cases of one part: by the quick reader, else by `toml`.
fn read_part(part: &str) -> Option<Vec<Case>> {
    match fast::read_case(part) {
        Some(case) => Some(vec![case]),
        None => toml::from_str::<Part>(part).ok().map(|p| p.case),
    }
}

/// The TOML text of `cb` without its header, as `toml::to_string(cb)`
/// writes it (a test holds the two equal), case by case.
pub fn to_string(cb: &CaseBase) -> Result<String, toml::ser::Error> {
    if cb.cases.is_empty() {
        // `case = []`, as `toml` writes an empty case base.
        return toml::to_string(cb);
    }
    let mut text = toml::to_string(&Prelude {
        version: cb.version,
        learned: cb.learned.as_ref(),
    })?;
    text.push_str(&cases_to_string(&cb.cases)?);
    Ok(text)
}

/// The `[[case]]` tables of `cases`, each after a blank line, as
/// [`to_string`] writes them after the prelude: what appending `cases` to
/// a case base written by it adds.
pub fn cases_to_string(cases: &[Case]) -> Result<String, toml::ser::Error> {
    let mut text = String::new();
    let written = in_parallel(cases, |case| {
        let mut quick = String::new();
        Some(match fast::write_case(case, &mut quick) {
            true => Ok(quick),
            false => toml::to_string(&PartRef { case: [case] }),
        })
    })
    .expect("every case gives a result");
    for part in written {
        text.push('\n');
        text.push_str(&part?);
    }
    Ok(text)
}

/// `f` of each item, in order, on as many threads as there are cores (one
/// for a small input); `None` when any item gives `None`.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> Option<R> + Sync,
) -> Option<Vec<R>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(items.len() / MIN_CASES_PER_THREAD).max(1);
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let per = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(per)
            .map(|group| scope.spawn(|| group.iter().map(&f).collect::<Option<Vec<R>>>()))
            .collect();
        let mut all = Vec::with_capacity(items.len());
        for h in handles {
            all.extend(h.join().expect("a case-base thread does not panic")?);
        }
        Some(all)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases of the seed case base again and again under their own names:
    /// enough that reading and writing run on several threads.
    fn many(n: usize) -> CaseBase {
        let seed = CaseBase::parse(
            include_str!("../../../casebase/seed.toml"),
            std::path::Path::new("seed.toml"),
        )
        .unwrap();
        let mut cb = CaseBase::new();
        for k in 0..n {
            let mut case = seed.cases[k % seed.cases.len()].clone();
            case.name = format!("{} #{k}", case.name);
            cb.cases.push(case);
        }
        cb
    }

    fn whole(text: &str) -> CaseBase {
        toml::from_str(text).unwrap()
    }

    /// Part by part, a case base reads and writes as `toml` reads and writes
    /// the whole file: the seed, the hand-written example and one large
    /// enough for threads.
    #[test]
    fn part_by_part_is_the_whole_file() {
        let big = toml::to_string(&many(2 * MIN_CASES_PER_THREAD + 7)).unwrap();
        for text in [
            include_str!("../../../casebase/seed.toml"),
            include_str!("../../../casebase/example.toml"),
            &big,
        ] {
            let cb = parse(text).expect("read part by part");
            assert_eq!(cb, whole(text));
            assert_eq!(to_string(&cb).unwrap(), toml::to_string(&cb).unwrap());
            assert!(reads_back(text));
        }
        assert_eq!(
            to_string(&CaseBase::new()).unwrap(),
            "version = 2\ncase = []\n"
        );
    }

    /// A case base with profiles and a `[learned]` table reads and writes
    /// part by part as `toml` does the whole file, the table in the prelude;
    /// and with the table after the cases (valid TOML, by hand) it is left
    /// to the whole file.
    #[test]
    fn profiles_and_the_learned_table_are_the_whole_file() {
        let mut cb = many(2 * MIN_CASES_PER_THREAD + 3);
        for (k, case) in cb.cases.iter_mut().enumerate().step_by(7) {
            let name = case.name.clone();
            *case = crate::casebase::tests::profiled(&name);
            case.profile[0].positions = k as u64;
        }
        cb.learned = Some(crate::casebase::tests::learned());
        let text = toml::to_string(&cb).unwrap();
        assert_eq!(to_string(&cb).unwrap(), text);
        assert!(
            text.starts_with("version = 2\n\n[learned]\n"),
            "{}",
            &text[..200]
        );
        assert_eq!(parse(&text).as_ref(), Some(&cb));
        assert_eq!(whole(&text), cb);
        assert!(reads_back(&text));
        let first = text.find("[[case]]").unwrap();
        let moved = format!("version = 2\n\n{}\n{}", &text[first..], &text[12..first]);
        assert_eq!(whole(&moved), cb);
        assert!(parse(&moved).is_none());
    }

    /// What the quick reader and writer leave to `toml` (strings with
    /// quotes, escapes, tabs or newlines, trailing comments, CRLF lines,
    /// multi-line strings) still reads and writes as `toml` does.
    #[test]
    fn cases_outside_the_quick_form_read_and_write_as_toml_does() {
        let mut cb = many(3);
        cb.cases[0].comment = Some("a \"quoted\" \\ back\tslash\nand a new line".into());
        cb.cases[1].comment = Some("it's".into());
        cb.cases[2].name = "Ünïcödé, [[case]] = 1 # not a comment".into();
        let text = toml::to_string(&cb).unwrap();
        assert!(text.contains("'''") || text.contains("\"\"\""), "{text}");
        assert_eq!(to_string(&cb).unwrap(), text);
        assert_eq!(parse(&text).unwrap(), cb);
        for odd in [
            text.replace('\n', "\r\n"),
            text.replace("steps = 140", "steps = 140 # a comment"),
            text.replace("steps = 140", "steps = 1_40"),
            text.replace("metric = \"steps\"", "metric = 'steps'"),
            text.replacen("[case.outcome]", "[ case.outcome ]", 1),
            text.replacen(
                "comment = \"earned",
                "comment = \"\"\"\n[[case]]\nname = \"inside\"\n\"\"\"\nx = \"earned",
                1,
            ),
        ] {
            assert_ne!(odd, text);
            let fast = parse(&odd);
            match toml::from_str::<CaseBase>(&odd) {
                Ok(cb) => assert_eq!(fast.as_ref(), Some(&cb), "{odd}"),
                Err(_) => assert!(fast.is_none(), "{odd}"),
            }
        }
    }

    /// A prelude that holds cases of its own (`case = []` before the
    /// `[[case]]` tables, an error for `toml`) is left to the whole file.
    #[test]
    fn a_prelude_with_cases_is_left_to_the_whole_file() {
        let text = format!(
            "version = 1\ncase = []\n\n{}",
            &toml::to_string(&many(1)).unwrap()[12..]
        );
        assert!(text.contains("\n[[case]]\n"), "{text}");
        assert!(parse(&text).is_none());
        assert!(toml::from_str::<CaseBase>(&text).is_err());
    }
}
