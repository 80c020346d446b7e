//! Every command of the editor with its label and keyboard shortcut, in one table (an
//! exhaustive `match`, so a new command without a row does not compile): menus show the
//! shortcuts from here and the keyboard handler reads them from here, so the two cannot
//! disagree, and a test checks that no two commands share a shortcut.

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};

/// Declares [`Command`] and [`Command::ALL`] from one list, so that the two cannot disagree.
macro_rules! commands {
    ($($name:ident),* $(,)?) => {
        /// A command the artist can give.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Command {
            $($name),*
        }

        impl Command {
            /// Every command, in the order the keyboard handler tries their shortcuts.
            pub const ALL: &[Command] = &[$(Command::$name),*];
        }
    };
}

// Shortcuts with more modifiers come before those with fewer on the same key, so that
// Ctrl+Shift+S is not read as Ctrl+S.
commands!(
    SaveAs,
    Redo,
    Undo,
    Save,
    Open,
    ExportJson,
    Quit,
    FrameAll,
    NextNode,
    PreviousNode,
    ClearSelection,
    TogglePlay,
    Reset,
    Delete,
    ToggleAnchor,
    Connect,
    Step,
    AnchorsForward,
    AnchorsBack,
    AnchorsLeft,
    AnchorsRight,
    AnchorsUp,
    AnchorsDown,
);

/// A command's label and shortcut.
pub struct CommandSpec {
    /// Its menu label.
    pub label: &'static str,
    /// Its keyboard shortcut.
    pub shortcut: Option<KeyboardShortcut>,
    /// A second shortcut for the same command (Ctrl+Y for redo), not shown in menus.
    pub alternative: Option<KeyboardShortcut>,
}

const fn key(modifiers: Modifiers, key: Key) -> Option<KeyboardShortcut> {
    Some(KeyboardShortcut::new(modifiers, key))
}

impl Command {
    /// The command's row of the table: a command without one does not compile.
    pub const fn spec(self) -> CommandSpec {
        match self {
            Command::SaveAs => CommandSpec {
                label: "Save As…",
                shortcut: key(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S),
                alternative: None,
            },
            Command::Redo => CommandSpec {
                label: "Redo",
                shortcut: key(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z),
                alternative: key(Modifiers::COMMAND, Key::Y),
            },
            Command::Undo => CommandSpec {
                label: "Undo",
                shortcut: key(Modifiers::COMMAND, Key::Z),
                alternative: None,
            },
            Command::Save => CommandSpec {
                label: "Save",
                shortcut: key(Modifiers::COMMAND, Key::S),
                alternative: None,
            },
            Command::Open => CommandSpec {
                label: "Open…",
                shortcut: key(Modifiers::COMMAND, Key::O),
                alternative: None,
            },
            Command::ExportJson => CommandSpec {
                label: "Export JSON…",
                shortcut: key(Modifiers::COMMAND, Key::E),
                alternative: None,
            },
            Command::Quit => CommandSpec {
                label: "Quit",
                shortcut: key(Modifiers::COMMAND, Key::Q),
                alternative: None,
            },
            Command::FrameAll => CommandSpec {
                label: "Frame all",
                shortcut: key(Modifiers::NONE, Key::F),
                alternative: None,
            },
            Command::NextNode => CommandSpec {
                label: "Next node",
                shortcut: key(Modifiers::NONE, Key::N),
                alternative: None,
            },
            Command::PreviousNode => CommandSpec {
                label: "Previous node",
                shortcut: key(Modifiers::NONE, Key::P),
                alternative: None,
            },
            Command::ClearSelection => CommandSpec {
                label: "Clear selection",
                shortcut: key(Modifiers::NONE, Key::Escape),
                alternative: None,
            },
            Command::TogglePlay => CommandSpec {
                label: "Play / pause",
                shortcut: key(Modifiers::NONE, Key::Space),
                alternative: None,
            },
            Command::Reset => CommandSpec {
                label: "Reset simulation",
                shortcut: key(Modifiers::NONE, Key::R),
                alternative: None,
            },
            Command::Delete => CommandSpec {
                label: "Delete selected",
                shortcut: key(Modifiers::NONE, Key::Delete),
                alternative: None,
            },
            Command::ToggleAnchor => CommandSpec {
                label: "Toggle anchor",
                shortcut: key(Modifiers::NONE, Key::A),
                alternative: None,
            },
            Command::Connect => CommandSpec {
                label: "Connect selected nodes",
                shortcut: key(Modifiers::NONE, Key::C),
                alternative: None,
            },
            Command::Step => CommandSpec {
                label: "Step once",
                shortcut: key(Modifiers::NONE, Key::Period),
                alternative: None,
            },
            Command::AnchorsForward => CommandSpec {
                label: "Move anchors forward",
                shortcut: key(Modifiers::NONE, Key::I),
                alternative: None,
            },
            Command::AnchorsBack => CommandSpec {
                label: "Move anchors back",
                shortcut: key(Modifiers::NONE, Key::K),
                alternative: None,
            },
            Command::AnchorsLeft => CommandSpec {
                label: "Move anchors left",
                shortcut: key(Modifiers::NONE, Key::J),
                alternative: None,
            },
            Command::AnchorsRight => CommandSpec {
                label: "Move anchors right",
                shortcut: key(Modifiers::NONE, Key::L),
                alternative: None,
            },
            Command::AnchorsUp => CommandSpec {
                label: "Move anchors up",
                shortcut: key(Modifiers::NONE, Key::U),
                alternative: None,
            },
            Command::AnchorsDown => CommandSpec {
                label: "Move anchors down",
                shortcut: key(Modifiers::NONE, Key::M),
                alternative: None,
            },
        }
    }
}

/// The commands whose shortcuts were pressed this frame (consuming the key presses). Single
/// keys are ignored while a text field has the keyboard.
pub fn pressed(ctx: &egui::Context) -> Vec<Command> {
    let typing = ctx.egui_wants_keyboard_input();
    Command::ALL
        .iter()
        .copied()
        .filter(|command| {
            let spec = command.spec();
            spec.shortcut.iter().chain(&spec.alternative).any(|shortcut| {
                let plain_key = shortcut.modifiers.is_none();
                !(plain_key && typing) && ctx.input_mut(|i| i.consume_shortcut(shortcut))
            })
        })
        .collect()
}

/// A menu button for `command`, showing its shortcut; true when clicked.
pub fn menu_item(ui: &mut egui::Ui, command: Command) -> bool {
    let spec = command.spec();
    let mut button = egui::Button::new(spec.label);
    if let Some(shortcut) = spec.shortcut {
        button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    ui.add(button).clicked()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn no_two_commands_share_a_shortcut_or_a_label() {
        let mut shortcuts = HashSet::new();
        let mut labels = HashSet::new();
        let mut commands = HashSet::new();
        for &command in Command::ALL {
            let spec = command.spec();
            for &s in spec.shortcut.iter().chain(&spec.alternative) {
                assert!(
                    shortcuts.insert((
                        s.modifiers.ctrl,
                        s.modifiers.command,
                        s.modifiers.shift,
                        s.modifiers.alt,
                        s.logical_key
                    )),
                    "{:?} twice",
                    s
                );
            }
            assert!(labels.insert(spec.label), "{} twice", spec.label);
            assert!(commands.insert(command), "{command:?} twice");
        }
    }

    #[test]
    fn the_editor_guide_lists_every_shortcut() {
        let guide = include_str!("../../../docs/editor.md");
        for command in Command::ALL {
            let spec = command.spec();
            if let Some(s) = spec.shortcut {
                let row = format!(
                    "| {} | {} |",
                    spec.label,
                    s.format(&egui::ModifierNames::NAMES, false)
                );
                assert!(guide.contains(&row), "docs/editor.md lacks the row `{row}`");
            }
        }
    }
}
