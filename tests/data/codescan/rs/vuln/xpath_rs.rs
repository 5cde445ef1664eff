async fn lookup(Query(q): Query<Lookup>) -> String {
    let package = parser::parse(USERS_XML).unwrap();
    let document = package.as_document();
    let expr = format!("//user[name='{}']/email", q.name);
    let value = evaluate_xpath(&document, &expr).unwrap();
    value.string()
}
