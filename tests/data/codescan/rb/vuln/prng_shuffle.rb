    password = ('a'..'z').to_a.concat(('0'..'9').to_a).shuffle.first(12).join
