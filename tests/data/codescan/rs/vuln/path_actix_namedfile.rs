#[get("/files")]
async fn files(q: web::Query<FileQuery>) -> actix_web::Result<NamedFile> {
    let path = PathBuf::from("/srv/files").join(&q.name);
    Ok(NamedFile::open(path)?)
}
