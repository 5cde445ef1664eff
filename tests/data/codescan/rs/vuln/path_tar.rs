    for entry in archive.entries()? {
        let mut entry = entry?;
        let path = dest.join(entry.path()?);
        entry.unpack(&path)?;
    }
