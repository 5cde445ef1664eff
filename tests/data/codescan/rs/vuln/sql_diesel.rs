    let q = format!("SELECT * FROM posts ORDER BY {} DESC", params.sort);
    let posts = diesel::sql_query(q).load::<Post>(&mut conn)?;
