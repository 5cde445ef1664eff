use std::path::PathBuf;
use uuid::Uuid;

pub struct Store {
    root: PathBuf,
}

impl Store {
    pub fn save(&self, data: &[u8]) -> std::io::Result<Uuid> {
        let id = Uuid::new_v4();
        std::fs::write(self.root.join(format!("{id}.bin")), data)?;
        Ok(id)
    }

    pub fn load(&self, id: &str) -> std::io::Result<Vec<u8>> {
        let id = Uuid::parse_str(id).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        std::fs::read(self.root.join(format!("{id}.bin")))
    }
}
