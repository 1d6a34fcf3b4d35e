//! Replacing a regular file atomically: the old file or the new one, never
//! a mix, whenever the writer is killed.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::dest::folder;
use crate::error::Error;

/// A new file's permission bits before the umask, as for any new file.
const NEW_FILE_MODE: u32 = 0o666;

/// Replaces `file` by `bytes`: a temporary file beside it, with `mode` (the
/// old file's bits) or the umask's default, flushed to disk and renamed over
/// it; then the folder is flushed so that the rename lasts. A temporary
/// file is removed when anything fails. `before_rename` runs between the
/// write and the rename (the case base's tests pause there to show that a
/// reader never sees half a file).
pub fn replace_file(
    file: &Path,
    mode: Option<u32>,
    bytes: &[u8],
    before_rename: impl FnOnce(),
) -> Result<(), Error> {
    let dir = folder(file);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(NEW_FILE_MODE))
        .tempfile_in(&dir)
        .map_err(|e| Error::FolderNotWritable {
            dir: dir.clone(),
            source: e,
        })?;
    let io = |action, source| Error::Io {
        path: file.to_path_buf(),
        action,
        source,
    };
    // The umask narrowed the mode on creation; an existing file's mode is
    // copied exactly.
    if let Some(mode) = mode {
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(|e| io("cannot set the mode of the file replacing", e))?;
    }
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| io("cannot write", e))?;
    before_rename();
    tmp.persist(file)
        .map_err(|e| io("cannot replace", e.error))?;
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Checks that `file`'s folder takes a new file, by creating one and
/// removing it.
pub(crate) fn probe(file: &Path) -> Result<(), Error> {
    let dir = folder(file);
    tempfile::Builder::new()
        .prefix(".write-test.")
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|e| Error::FolderNotWritable { dir, source: e })
}
