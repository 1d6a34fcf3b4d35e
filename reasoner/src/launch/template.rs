//! The template launcher, for schedulers other than Slurm: `--launcher
//! 'CMD {args}'` runs `CMD` with `{args}` replaced by the solver and its
//! arguments, e.g. `'ssh node7 {args}'` or
//! `'qrsh -now y -l h_vmem={mem_mb}M -l h_rt={time_s} {args}'`.
//!
//! The template is split into words as a POSIX shell would (quotes and
//! backslashes; no variables, globs or pipes), and no shell runs it.
//! Placeholders:
//!
//! | placeholder | becomes |
//! |---|---|
//! | `{args}`    | the solver program and its arguments, one word each; must be a word of its own |
//! | `{name}`    | the attempt's job name, e.g. `reasoner-classic-3` |
//! | `{mem_mb}`  | memory in MiB: `--max-memory` plus a headroom (as for Slurm) |
//! | `{time_s}`  | the attempt's timeout in whole seconds, rounded up |
//!
//! A placeholder without a value (`{mem_mb}` without `--max-memory`,
//! `{time_s}` for an attempt without a timeout) is an error: the reasoner
//! checks its attempts' limits against the template before it runs any.

use std::path::Path;

use super::{ceil_secs, scheduler_mib, solver_words, JobSpec, Launcher};

/// The placeholder for the solver command line.
pub const ARGS: &str = "{args}";

const PLACEHOLDERS: [&str; 4] = [ARGS, "{name}", "{mem_mb}", "{time_s}"];

/// A command template with `{args}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<String>,
}

impl Template {
    /// Splits and checks a template; the error says what is wrong.
    pub fn parse(template: &str) -> Result<Template, String> {
        let words = shlex::split(template)
            .ok_or_else(|| format!("launcher template {template:?} has an unclosed quote"))?;
        if words.iter().filter(|w| w.as_str() == ARGS).count() != 1 {
            return Err(format!(
                "launcher template {template:?} needs {ARGS} exactly once, as a word of its own"
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
            if word == ARGS {
                line.extend(solver_words(solver, args));
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
                "a b.txt"
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
        let plain = Template::parse("ssh n1 {args}").unwrap();
        assert_eq!(
            plain
                .command_line(Path::new("/s"), &args, &unlimited)
                .unwrap(),
            ["ssh", "n1", "/s", "solve", "a b.txt"]
        );
    }

    #[test]
    fn bad_templates_say_what_is_wrong() {
        let err = |t: &str| Template::parse(t).unwrap_err();
        assert!(err("ssh 'n1 {args}").contains("unclosed quote"));
        assert!(err("ssh n1 --x={args}").contains("word of its own"));
        assert!(err("ssh {args} {args}").contains("exactly once"));
        assert!(err("{args}").contains("start with the program"));
        assert!(err("run --cpus={cpus} {args}").contains("unknown placeholder"));
    }
}
