//! The name RetroArch gives a content's `.srm` file, worked out from the content path as
//! RetroArch does (its `path_remove_extension` cuts the whole path at its last `.`, then it
//! takes the file name of what is left), and whether that name belongs to one cart alone.
//!
//! Earlier versions of the core kept save RAM in that file. Importing it into the core's own
//! save file ([`crate::saves`]) is safe only when no other cart could have saved under the
//! same name: not when the cut fell in a folder above the cart (`~/my.games/platformer` and
//! every other cart under `my.games` saved as `my.srm`), and not for a cart loaded through its
//! `cart.toml` (every such cart saved as `cart.srm`).

use std::fmt;

/// Why RetroArch's `.srm` name for a content cannot be told to be one cart's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shared {
    /// Loaded through `cart.toml`: every cart loaded that way saves as `cart.srm`.
    CartToml,
    /// The last `.` of the path is in folder `folder`: every cart under it saves as `name`.
    DotAbove { name: String, folder: String },
    /// The path ends in a separator or its name is all extension: no name of its own.
    NoName,
}

impl Shared {
    /// The `.srm` name RetroArch used for the content (without `.srm`), if it has one.
    pub fn name(&self) -> Option<&str> {
        match self {
            Shared::CartToml => Some("cart"),
            Shared::DotAbove { name, .. } => Some(name),
            Shared::NoName => None,
        }
    }
}

impl fmt::Display for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shared::CartToml => {
                write!(
                    f,
                    "RetroArch gave that name to every cart loaded through its cart.toml"
                )
            }
            Shared::DotAbove { folder, .. } => write!(
                f,
                "RetroArch gave that name to every cart under {folder} (it cuts the path at the \
                 dot in that folder's name)"
            ),
            Shared::NoName => write!(f, "the content path has no name of its own"),
        }
    }
}

fn is_separator(c: char) -> bool {
    c == '/' || (cfg!(windows) && c == '\\')
}

/// The name (without `.srm`) RetroArch gives the save file of the content at `path`, when it
/// is this content's alone; else why not.
pub fn srm_name(path: &str) -> Result<String, Shared> {
    let base_at = path.rfind(is_separator).map_or(0, |i| i + 1);
    let base = &path[base_at..];
    if base == "cart.toml" {
        return Err(Shared::CartToml);
    }
    let name = match path.rfind('.') {
        None => base,
        Some(dot) if dot >= base_at => &path[base_at..dot],
        Some(dot) => {
            let cut = &path[..dot];
            let name_at = cut.rfind(is_separator).map_or(0, |i| i + 1);
            let folder_end = path[dot..]
                .find(is_separator)
                .map_or(path.len(), |i| dot + i);
            return Err(Shared::DotAbove {
                name: cut[name_at..].to_string(),
                folder: path[..folder_end].to_string(),
            });
        }
    };
    if name.is_empty() {
        return Err(Shared::NoName);
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cart_of_its_own_is_named_after_its_folder_or_file() {
        assert_eq!(
            srm_name("/home/p/carts/platformer"),
            Ok("platformer".into())
        );
        assert_eq!(srm_name("carts/shmup.kcart"), Ok("shmup".into()));
        assert_eq!(srm_name("/a/b/nova.v2.kcart"), Ok("nova.v2".into()));
        assert_eq!(srm_name("platformer"), Ok("platformer".into()));
    }

    #[test]
    fn names_shared_by_several_carts_are_refused() {
        assert_eq!(
            srm_name("/home/p/my.games/platformer"),
            Err(Shared::DotAbove {
                name: "my".into(),
                folder: "/home/p/my.games".into()
            })
        );
        assert_eq!(
            srm_name("/home/p/.local/carts/shmup").unwrap_err().name(),
            Some("")
        );
        assert_eq!(srm_name("/x/platformer/cart.toml"), Err(Shared::CartToml));
        assert_eq!(
            srm_name("/x/my.games/shmup/cart.toml"),
            Err(Shared::CartToml)
        );
        assert_eq!(srm_name("/x/carts/"), Err(Shared::NoName));
        assert_eq!(srm_name("/x/.kcart"), Err(Shared::NoName));
        let why = srm_name("/g/my.games/platformer").unwrap_err().to_string();
        assert!(why.contains("every cart under /g/my.games"), "{why}");
    }
}
