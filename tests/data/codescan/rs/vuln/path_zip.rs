fn extract(archive: &mut zip::ZipArchive<File>, dest: &Path) -> io::Result<()> {
    for i in 0..archive.len() {
        let mut file = archive.by_index(i)?;
        let out_path = dest.join(file.name());
        if let Some(parent) = out_path.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut out = File::create(&out_path)?;
        io::copy(&mut file, &mut out)?;
    }
    Ok(())
}
