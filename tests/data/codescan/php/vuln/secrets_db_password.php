define('DB_HOST', 'db.prod.internal');
define('DB_USER', 'app');
define('DB_PASSWORD', 'SeQGqmMk5Q#lrHaJ');
