        let Some(rel) = file.enclosed_name() else { continue };
        let out_path = dest.join(rel);
