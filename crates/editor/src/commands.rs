//! Every command of the editor with its label and keyboard shortcut, in one table: menus show
//! the shortcuts from here and the keyboard handler reads them from here, so the two cannot
//! disagree, and a test checks that no two commands share a shortcut.

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};

/// A command the artist can give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Open,
    Save,
    SaveAs,
    ExportJson,
    Quit,
    FrameAll,
    NextNode,
    PreviousNode,
    ClearSelection,
    TogglePlay,
    Reset,
    Undo,
    Redo,
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
}

/// A command's label and shortcut.
pub struct CommandSpec {
    /// The command.
    pub command: Command,
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

/// Every command. Shortcuts with more modifiers come before those with fewer on the same key,
/// so that Ctrl+Shift+S is not read as Ctrl+S.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        command: Command::SaveAs,
        label: "Save As…",
        shortcut: key(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S),
        alternative: None,
    },
    CommandSpec {
        command: Command::Redo,
        label: "Redo",
        shortcut: key(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z),
        alternative: key(Modifiers::COMMAND, Key::Y),
    },
    CommandSpec {
        command: Command::Undo,
        label: "Undo",
        shortcut: key(Modifiers::COMMAND, Key::Z),
        alternative: None,
    },
    CommandSpec {
        command: Command::Save,
        label: "Save",
        shortcut: key(Modifiers::COMMAND, Key::S),
        alternative: None,
    },
    CommandSpec {
        command: Command::Open,
        label: "Open…",
        shortcut: key(Modifiers::COMMAND, Key::O),
        alternative: None,
    },
    CommandSpec {
        command: Command::ExportJson,
        label: "Export JSON…",
        shortcut: key(Modifiers::COMMAND, Key::E),
        alternative: None,
    },
    CommandSpec {
        command: Command::Quit,
        label: "Quit",
        shortcut: key(Modifiers::COMMAND, Key::Q),
        alternative: None,
    },
    CommandSpec {
        command: Command::FrameAll,
        label: "Frame all",
        shortcut: key(Modifiers::NONE, Key::F),
        alternative: None,
    },
    CommandSpec {
        command: Command::NextNode,
        label: "Next node",
        shortcut: key(Modifiers::NONE, Key::N),
        alternative: None,
    },
    CommandSpec {
        command: Command::PreviousNode,
        label: "Previous node",
        shortcut: key(Modifiers::NONE, Key::P),
        alternative: None,
    },
    CommandSpec {
        command: Command::ClearSelection,
        label: "Clear selection",
        shortcut: key(Modifiers::NONE, Key::Escape),
        alternative: None,
    },
    CommandSpec {
        command: Command::TogglePlay,
        label: "Play / pause",
        shortcut: key(Modifiers::NONE, Key::Space),
        alternative: None,
    },
    CommandSpec {
        command: Command::Reset,
        label: "Reset simulation",
        shortcut: key(Modifiers::NONE, Key::R),
        alternative: None,
    },
    CommandSpec {
        command: Command::Delete,
        label: "Delete selected",
        shortcut: key(Modifiers::NONE, Key::Delete),
        alternative: None,
    },
    CommandSpec {
        command: Command::ToggleAnchor,
        label: "Toggle anchor",
        shortcut: key(Modifiers::NONE, Key::A),
        alternative: None,
    },
    CommandSpec {
        command: Command::Connect,
        label: "Connect selected nodes",
        shortcut: key(Modifiers::NONE, Key::C),
        alternative: None,
    },
    CommandSpec {
        command: Command::Step,
        label: "Step once",
        shortcut: key(Modifiers::NONE, Key::Period),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsForward,
        label: "Move anchors forward",
        shortcut: key(Modifiers::NONE, Key::I),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsBack,
        label: "Move anchors back",
        shortcut: key(Modifiers::NONE, Key::K),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsLeft,
        label: "Move anchors left",
        shortcut: key(Modifiers::NONE, Key::J),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsRight,
        label: "Move anchors right",
        shortcut: key(Modifiers::NONE, Key::L),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsUp,
        label: "Move anchors up",
        shortcut: key(Modifiers::NONE, Key::U),
        alternative: None,
    },
    CommandSpec {
        command: Command::AnchorsDown,
        label: "Move anchors down",
        shortcut: key(Modifiers::NONE, Key::M),
        alternative: None,
    },
];

/// The table entry of `command`.
pub fn spec(command: Command) -> &'static CommandSpec {
    COMMANDS.iter().find(|s| s.command == command).unwrap_or(&COMMANDS[0])
}

/// The commands whose shortcuts were pressed this frame (consuming the key presses). Single
/// keys are ignored while a text field has the keyboard.
pub fn pressed(ctx: &egui::Context) -> Vec<Command> {
    let typing = ctx.egui_wants_keyboard_input();
    COMMANDS
        .iter()
        .filter(|spec| {
            spec.shortcut.iter().chain(&spec.alternative).any(|shortcut| {
                let plain_key = shortcut.modifiers.is_none();
                !(plain_key && typing) && ctx.input_mut(|i| i.consume_shortcut(shortcut))
            })
        })
        .map(|spec| spec.command)
        .collect()
}

/// A menu button for `command`, showing its shortcut; true when clicked.
pub fn menu_item(ui: &mut egui::Ui, command: Command) -> bool {
    let spec = spec(command);
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
        for spec in COMMANDS {
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
            assert!(commands.insert(spec.command), "{:?} twice", spec.command);
        }
    }

    #[test]
    fn the_editor_guide_lists_every_shortcut() {
        let guide = include_str!("../../../docs/editor.md");
        for spec in COMMANDS {
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
