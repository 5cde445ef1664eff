async fn preview(Json(req): Json<PreviewReq>) -> Html<String> {
    let mut ctx = tera::Context::new();
    ctx.insert("user", &req.user);
    Html(Tera::one_off(&req.template, &ctx, true).unwrap())
}
