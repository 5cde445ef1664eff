fn claims_from(token: &str, key: &DecodingKey) -> Result<Claims, jsonwebtoken::errors::Error> {
    let validation = Validation::new(Algorithm::RS256);
    Ok(decode::<Claims>(token, key, &validation)?.claims)
}
