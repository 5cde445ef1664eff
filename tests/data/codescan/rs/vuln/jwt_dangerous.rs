    let data = dangerous_insecure_decode::<Claims>(&bearer)?;
    let user_id = data.claims.sub;
