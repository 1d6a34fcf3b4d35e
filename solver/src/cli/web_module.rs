//! Where the page of `solver render ... -o PAGE.html` gets the solver
//! compiled to WebAssembly (the `sbp-web` crate, `solver/web`), which lets a
//! person play the puzzle and ask for hints in the page. It is a build of its
//! own (another target), so the solver looks for it when it writes a page:
//! `--web-module FILE`, else `$SBP_WEB_MODULE`, else `sbp_web.wasm` beside
//! the executable, else where cargo puts it next to `target/release` or
//! `target/debug`. Without one the page plays solutions only, and says so.

use std::path::PathBuf;

use super::Failure;

/// The command that builds the module.
pub const BUILD: &str = "cargo build --profile web -p sbp-web --target wasm32-unknown-unknown";

/// The first bytes of every WebAssembly module.
const MAGIC: &[u8] = b"\0asm";

/// The module's bytes for a page: from `flag` (`--web-module FILE`, or
/// `off` for none), the environment, or the places beside the executable;
/// `None`, with a note on stderr, when there is none.
pub fn find(flag: Option<&str>) -> Result<Option<Vec<u8>>, Failure> {
    if flag == Some("off") {
        return Ok(None);
    }
    let named = flag
        .map(|f| (PathBuf::from(f), "--web-module"))
        .or_else(|| {
            std::env::var_os("SBP_WEB_MODULE").map(|v| (PathBuf::from(v), "SBP_WEB_MODULE"))
        });
    if let Some((path, by)) = named {
        return read(&path)
            .map(Some)
            .map_err(|why| Failure::input(format!("{by} {}: {why}", path.display())));
    }
    if let Some(bytes) = beside_executable().iter().find_map(|p| read(p).ok()) {
        return Ok(Some(bytes));
    }
    eprintln!(
        "note: the page plays the solution only: to play the puzzle by hand with hints, build \
         the solver for the browser (`{BUILD}`) and write the page again, or name the module \
         with --web-module FILE"
    );
    Ok(None)
}

/// A module's bytes, or why the file is not one.
fn read(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !bytes.starts_with(MAGIC) {
        return Err(format!(
            "not a WebAssembly module (it does not start with \\0asm); build one with `{BUILD}`"
        ));
    }
    Ok(bytes)
}

/// `sbp_web.wasm` beside the executable, then cargo's place for it from the
/// executable's `target/<profile>` folder.
fn beside_executable() -> Vec<PathBuf> {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(PathBuf::from))
    else {
        return Vec::new();
    };
    let mut places = vec![dir.join("sbp_web.wasm")];
    // target/release/solver or target/debug/solver (deps/ for test builds).
    for up in [dir.parent(), dir.parent().and_then(|d| d.parent())]
        .into_iter()
        .flatten()
    {
        places.push(up.join("wasm32-unknown-unknown/web/sbp_web.wasm"));
    }
    places
}
