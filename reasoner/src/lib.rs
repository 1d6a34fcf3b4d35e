//! Case-based meta-reasoner for the sliding-block solver (R. G. Spaans, 2010,
//! §5.3-5.5, §6.3, §7.2): it solves a puzzle unattended by running the
//! `solver` binary as a separate process with parameter sets taken from a case
//! base of solved puzzles and from a randomized proximity search, and grows
//! the case base with what it learns.
//!
//! The pieces, in the order of the cycle:
//!
//! | module         | holds |
//! |----------------|-------|
//! | [`features`]   | feature ranges read from `solver features --json` |
//! | [`casebase`]   | the TOML case base (schema, load with line numbers, atomic save, legacy import) |
//! | [`similarity`] | the swappable similarity, the thesis's formula as default; retrieval |
//! | [`retrieval`]  | which cases are reused: the similar ones, a random one, or none (ablations) |
//! | [`params`]     | one point of the parameter space, as case bases store it |
//! | [`space`]      | the parameter space as the solver declares it: normal form, distance, checks |
//! | [`bounds`]     | the forbidden regions learnt from `no_solution` results |
//! | [`plan`]       | which attempts run, decided by the seed and earlier outcomes only |
//! | [`grid`]       | a seeded grid over the parameter space, the experiments' oracle |
//! | [`runner`]     | supervised solver processes: limits, timeouts, kill, JSON |
//! | [`launch`]     | where attempts run: here, through Slurm's `srun`, or a command template |
//! | [`verify`]     | claimed solutions replayed by `solver verify` before they count |
//! | [`cycle`]      | retrieve, reuse, revise, final, retain |
//! | [`variant`]    | the easier-variant phase: a variant's solution as subgoals |
//! | [`improve`]    | the improve phase: window shortcuts, then [`rerun`], the bounded optimal re-run |
//! | [`split`]      | the door split: the master's region, the others, then the whole puzzle |
//! | [`park`]       | parking the blocks on the master's way, round by round, as goal sections |
//! | [`restart`]    | restarts from the best positions of a stopped attempt |
//! | [`budget`]     | the whole run's `--time-budget` and `--position-budget`, spread over the phases |
//! | [`progress`]   | the progress bar over the attempts |
//! | [`error`]      | the reasoner's errors and their exit codes |
//! | [`interrupt`]  | SIGINT/SIGTERM as a value the cycle watches |
//! | [`flags`]      | the numeric flags' valid ranges, checked while parsing |
//! | [`report`]     | the report: text table and JSON |
//!
//! The reasoner never links the solver: the command line and the JSON result
//! are the whole interface.

pub mod bounds;
pub mod budget;
pub mod casebase;
pub mod cycle;
pub mod error;
pub mod features;
pub mod flags;
pub mod grid;
pub mod improve;
pub mod interrupt;
pub mod launch;
pub mod learn;
pub mod params;
pub mod park;
pub mod plan;
pub mod progress;
pub mod report;
pub mod rerun;
pub mod restart;
pub mod retrieval;
pub mod runner;
pub mod similarity;
pub mod space;
pub mod split;
pub mod tried;
pub mod variant;
pub mod verify;

pub use error::Error;
