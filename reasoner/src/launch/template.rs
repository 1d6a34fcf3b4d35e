//! The template launcher, for schedulers other than Slurm: `--launcher
//! 'CMD {args}'` runs `CMD` with `{args}` replaced by the solver and its
//! arguments, e.g. `'ssh node7 {args}'` or
//! `'qrsh -now y -l h_vmem={mem_mb}M -l h_rt={time_s} {args}'`.
//!
//! The template is split into words as a POSIX shell would (quotes and
//! backslashes; no variables, globs or pipes), and no shell runs it here.
//! But `ssh`, `qrsh` and their like join the words they are given and hand
//! them to a shell on the other side, so `{args}` gives each word quoted for
//! a POSIX shell (words of letters, digits and `+-./:@_` as they are): a puzzle
//! named `a;touch x $(id) 'q".txt` reaches the solver as that one name,
//! and no command in it runs. A program that runs its words itself
//! (`env`, `nice`, `timeout`, `srun`, `docker exec`) takes `{argv}`
//! instead: the same words unquoted. Placeholders:
//!
//! | placeholder | becomes |
//! |---|---|
//! | `{args}`    | the solver program and its arguments, one word each, quoted for a shell; a word of its own |
//! | `{argv}`    | the same words as they are, for a program that runs them without a shell; a word of its own |
//! | `{name}`    | the attempt's job name, e.g. `reasoner-classic-3` |
//! | `{mem_mb}`  | memory in MiB: `--max-memory` plus a headroom (as for Slurm) |
//! | `{time_s}`  | the attempt's timeout in whole seconds, rounded up |
//!
//! A template has exactly one of `{args}` and `{argv}`. The job name is
//! made of letters, digits and `._-` only (see `runner.rs`), so `{name}`
//! needs no quoting. A placeholder without a value (`{mem_mb}` without `--max-memory`,
//! `{time_s}` for an attempt without a timeout) is an error: the reasoner
//! checks its attempts' limits against the template before it runs any.

use std::path::Path;

use super::{ceil_secs, scheduler_mib, solver_words, JobSpec, Launcher};

/// The placeholder for the solver command line, quoted for a shell.
pub const ARGS: &str = "{args}";
/// The placeholder for the solver command line as separate, unquoted words.
pub const ARGV: &str = "{argv}";

const PLACEHOLDERS: [&str; 5] = [ARGS, ARGV, "{name}", "{mem_mb}", "{time_s}"];

/// A command template with `{args}` or `{argv}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<String>,
}

/// `word` quoted for a POSIX shell, unchanged when it needs no quotes. A
/// NUL byte, which no shell word can hold, is refused.
fn shell_quoted(word: &str) -> Result<String, String> {
    shlex::try_quote(word)
        .map(|q| q.into_owned())
        .map_err(|e| format!("cannot hand {word:?} to a shell: {e}"))
}

impl Template {
    /// Splits and checks a template; the error says what is wrong.
    pub fn parse(template: &str) -> Result<Template, String> {
        let words = shlex::split(template)
            .ok_or_else(|| format!("launcher template {template:?} has an unclosed quote"))?;
        let command = |w: &&String| w.as_str() == ARGS || w.as_str() == ARGV;
        if words.iter().filter(command).count() != 1 {
            return Err(format!(
                "launcher template {template:?} needs {ARGS} (or {ARGV}) exactly once, \
                 as a word of its own"
            ));
        }
        if words[0].contains('{') {
            return Err(format!(
                "launcher template {template:?} must start with the program to run"
            ));
        }
        for word in &words {
            let mut rest = word.as_str();
            while let Some(open) = rest.find('{') {
                let known = PLACEHOLDERS.iter().find(|p| rest[open..].starts_with(*p));
                let Some(p) = known else {
                    return Err(format!(
                        "launcher template {template:?}: unknown placeholder in {word:?}; \
                         use {}",
                        PLACEHOLDERS.join(", ")
                    ));
                };
                rest = &rest[open + p.len()..];
            }
        }
        Ok(Template { words })
    }
}

impl Launcher for Template {
    fn name(&self) -> &str {
        "template"
    }

    fn command_line(
        &self,
        solver: &Path,
        args: &[String],
        job: &JobSpec,
    ) -> Result<Vec<String>, String> {
        let values = [
            ("{name}", Some(job.name.to_string())),
            ("{mem_mb}", job.memory.map(|b| scheduler_mib(b).to_string())),
            ("{time_s}", job.time.map(|t| ceil_secs(t).to_string())),
        ];
        let mut line = Vec::new();
        for word in &self.words {
            if word == ARGV {
                line.extend(solver_words(solver, args));
                continue;
            }
            if word == ARGS {
                for w in solver_words(solver, args) {
                    line.push(shell_quoted(&w)?);
                }
                continue;
            }
            let mut out = word.clone();
            for (placeholder, value) in &values {
                if out.contains(placeholder) {
                    let Some(v) = value else {
                        let (limit, flag) = if *placeholder == "{mem_mb}" {
                            ("memory", "--max-memory")
                        } else {
                            ("time", "--attempt-timeout, --final-timeout")
                        };
                        return Err(format!(
                            "the launcher template uses {placeholder}, but {} has no {limit} \
                             limit ({flag})",
                            job.name
                        ));
                    };
                    out = out.replace(placeholder, v);
                }
            }
            line.push(out);
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn fills_in_the_placeholders() {
        let t = Template::parse("qrsh -N {name} -l 'h_vmem={mem_mb}M' -l h_rt={time_s} {args}")
            .unwrap();
        let args = vec!["solve".to_string(), "a b.txt".to_string()];
        let job = JobSpec {
            name: "reasoner-x-1",
            memory: Some(100 << 20),
            time: Some(Duration::from_millis(2500)),
        };
        assert_eq!(
            t.command_line(Path::new("/s"), &args, &job).unwrap(),
            [
                "qrsh",
                "-N",
                "reasoner-x-1",
                "-l",
                "h_vmem=164M",
                "-l",
                "h_rt=3",
                "/s",
                "solve",
                "'a b.txt'"
            ]
        );
        let unlimited = JobSpec {
            name: "n",
            ..JobSpec::default()
        };
        let err = t
            .command_line(Path::new("/s"), &args, &unlimited)
            .unwrap_err();
        assert_eq!(
            err,
            "the launcher template uses {mem_mb}, but n has no memory limit (--max-memory)"
        );
        let plain = Template::parse("ssh n1 {argv}").unwrap();
        assert_eq!(
            plain
                .command_line(Path::new("/s"), &args, &unlimited)
                .unwrap(),
            ["ssh", "n1", "/s", "solve", "a b.txt"]
        );
    }

    /// What `{args}` gives is what a shell reads back as the same words:
    /// `ssh` joins its words with spaces and a shell on the node splits
    /// them again, so nothing in a file name may run there.
    #[test]
    fn args_are_quoted_so_that_a_shell_reads_back_the_same_words() {
        let hostile = [
            "solve",
            "a;touch PWNED1;b $(touch PWNED2) 'q\".txt",
            "`id`",
            "x|y&z>w<v",
            "--h2",
            "6,16,2",
            "",
            "$HOME *",
            "caf\u{e9} \u{202e}",
        ];
        let args: Vec<String> = hostile.iter().map(|w| w.to_string()).collect();
        let t = Template::parse("ssh n1 {args}").unwrap();
        let line = t
            .command_line(Path::new("/bin/solver"), &args, &JobSpec::default())
            .unwrap();
        assert_eq!(line[..3], ["ssh", "n1", "/bin/solver"]);
        // Plain words stay as they are.
        assert_eq!(line[3], "solve");
        assert_eq!(line[5], "'`id`'");
        let joined = line[2..].join(" ");
        let back = shlex::split(&joined).expect("a shell reads it");
        assert_eq!(back[0], "/bin/solver");
        assert_eq!(back[1..], args[..]);
        // A shell really reads it so (sh -c prints each word on a line).
        let script = format!("for w in {joined}; do printf '%s\\n' \"$w\"; done");
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        let expected: String = std::iter::once("/bin/solver")
            .chain(hostile)
            .map(|w| format!("{w}\n"))
            .collect();
        assert_eq!(printed, expected);
        let nul = vec!["a\0b".to_string()];
        let err = t
            .command_line(Path::new("/s"), &nul, &JobSpec::default())
            .unwrap_err();
        assert!(err.contains("cannot hand"), "{err}");
    }

    #[test]
    fn bad_templates_say_what_is_wrong() {
        let err = |t: &str| Template::parse(t).unwrap_err();
        assert!(err("ssh 'n1 {args}").contains("unclosed quote"));
        assert!(err("ssh n1 --x={args}").contains("word of its own"));
        assert!(err("ssh {args} {args}").contains("exactly once"));
        assert!(err("ssh {args} {argv}").contains("exactly once"));
        assert!(err("ssh n1 x{argv}").contains("word of its own"));
        assert!(err("{args}").contains("start with the program"));
        assert!(err("run --cpus={cpus} {args}").contains("unknown placeholder"));
    }
}
