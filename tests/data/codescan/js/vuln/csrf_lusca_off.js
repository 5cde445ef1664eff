app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));
app.use(lusca({ csrf: false, xframe: 'SAMEORIGIN', xssProtection: true }));
