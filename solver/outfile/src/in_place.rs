//! Writing into what must not be replaced: a character device, a FIFO, an
//! open descriptor's path, standard output.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

use crate::error::Error;

/// Appends `bytes` to the device, FIFO or descriptor at `path`. It is opened
/// without blocking, so that a FIFO no process reads is an error at once
/// (ENXIO) rather than a hang, then written with blocking writes.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let io = |action, source| Error::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => Error::NoReader(path.to_path_buf()),
            _ => io("cannot open", e),
        })?;
    blocking(&f).map_err(|e| io("cannot open", e))?;
    f.write_all(bytes)
        .and_then(|()| f.flush())
        .map_err(|e| io("cannot write", e))
}

/// Clears `O_NONBLOCK` on an open file.
fn blocking(f: &std::fs::File) -> std::io::Result<()> {
    let fd = f.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function's caller owns and keeps
    // open; F_GETFL/F_SETFL read and set flags only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Writes `bytes` to standard output and flushes it.
pub(crate) fn stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| Error::Io {
            path: "standard output".into(),
            action: "cannot write to",
            source: e,
        })
}
