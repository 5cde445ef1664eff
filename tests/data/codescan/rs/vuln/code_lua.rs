#[post("/script")]
async fn run_script(body: String) -> HttpResponse {
    let lua = Lua::new();
    let result: mlua::Result<String> = lua.load(&body).eval();
    HttpResponse::Ok().body(format!("{:?}", result))
}
