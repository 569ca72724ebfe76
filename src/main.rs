use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

fn main() {
    let cli = match referee::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => usage_error(&error),
    };
    let code = match referee::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("referee: error: {error}");
            2
        }
    };
    std::process::exit(code);
}

/// Help and version go to stdout as clap writes them; a usage error becomes one line on
/// stderr, starting with `referee:` and ending with how the command is used, exit status 2.
fn usage_error(error: &clap::Error) -> ! {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        error.exit();
    }
    let command = referee::cli::Cli::command();
    let typed: Vec<String> = std::env::args().skip(1).collect();
    let subcommand = typed.iter().find_map(|word| {
        command
            .find_subcommand(word)
            .map(|c| c.get_name().to_string())
    });
    eprintln!(
        "{}",
        referee::cli::one_line_usage_error(&error.to_string(), subcommand.as_deref())
    );
    std::process::exit(2);
}
