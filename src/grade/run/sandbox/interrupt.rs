//! What an interrupted referee must undo: the runs under way and the scratch folders alive,
//! and the SIGINT/SIGTERM handler that kills and removes them before exiting.

use super::*;

/// The launchers of the runs under way (their process groups), and the scratch folders of the
/// sandboxes alive: what an interrupted referee kills and removes before it exits.
pub(super) static LIVE_RUNS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());
pub(super) static LIVE_SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// The write end of the pipe on which the signal handler passes SIGINT or SIGTERM on.
pub(super) static INTERRUPT_PIPE: AtomicI32 = AtomicI32::new(-1);
pub(super) static INTERRUPT_HANDLER: Once = Once::new();
/// Set once referee was interrupted: a run that starts after it is killed at once.
pub(super) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write is async-signal-safe; the descriptor stays open for the process's life.
    unsafe {
        libc::write(
            INTERRUPT_PIPE.load(Ordering::Relaxed),
            (&byte as *const u8).cast(),
            1,
        );
    }
}

/// On SIGINT or SIGTERM: kills every run, removes the scratch folders and exits with 128 +
/// the signal (130, 143), printing no report. A thread does it, woken by the handler.
pub(super) fn handle_interrupts() {
    INTERRUPT_HANDLER.call_once(|| {
        let mut ends = [0; 2];
        // SAFETY: pipe2 fills the two descriptors of the array we own.
        if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            return;
        }
        INTERRUPT_PIPE.store(ends[1], Ordering::Relaxed);
        let watcher = thread::Builder::new()
            .name("interrupt".into())
            .spawn(move || {
                let mut byte = 0u8;
                // SAFETY: reads one byte into a local from the pipe's read end, ours alone.
                while unsafe { libc::read(ends[0], (&mut byte as *mut u8).cast(), 1) } != 1 {}
                INTERRUPTED.store(true, Ordering::SeqCst);
                // Other threads go on grading meanwhile (a workspace may be made while the
                // scratch folder is being removed): kill and remove until nothing is left.
                for _ in 0..50 {
                    let runs = LIVE_RUNS
                        .lock()
                        .map(|runs| runs.clone())
                        .unwrap_or_default();
                    for group in runs {
                        kill_group(group);
                    }
                    let scratch = LIVE_SCRATCH
                        .lock()
                        .map(|dirs| dirs.clone())
                        .unwrap_or_default();
                    for dir in &scratch {
                        let _ = std::fs::remove_dir_all(dir);
                    }
                    if scratch.iter().all(|dir| !dir.exists()) {
                        break;
                    }
                    thread::sleep(Duration::from_millis(20));
                }
                std::process::exit(128 + i32::from(byte));
            });
        if watcher.is_err() {
            return;
        }
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: installs a handler that only calls write(2); the sigaction struct is
            // fully initialised (zeroed, then the handler and an empty mask).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Whether referee was interrupted (SIGINT or SIGTERM): what was graded since is not a grade.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Called when grading is done, before anything is reported: after an interrupt the watcher
/// thread is still killing and removing, and it ends the process with 128 + the signal. The
/// caller waits for that instead of reporting the killed runs' outcomes and exiting with 0.
pub fn wait_for_interrupt_exit() {
    while interrupted() {
        thread::park_timeout(Duration::from_secs(1));
    }
}

pub(super) fn register_live<T: PartialEq>(list: &Mutex<Vec<T>>, item: T) {
    if let Ok(mut items) = list.lock() {
        items.push(item);
    }
}

pub(super) fn unregister_live<T: PartialEq>(list: &Mutex<Vec<T>>, item: &T) {
    if let Ok(mut items) = list.lock() {
        items.retain(|i| i != item);
    }
}
