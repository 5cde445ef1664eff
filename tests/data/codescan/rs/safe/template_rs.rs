async fn preview(State(tera): State<Tera>, Json(req): Json<PreviewReq>) -> Html<String> {
    let mut ctx = tera::Context::new();
    ctx.insert("body", &req.body);
    Html(tera.render("preview.html", &ctx).unwrap())
}
