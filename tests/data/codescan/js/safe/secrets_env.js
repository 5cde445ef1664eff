const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY });
const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);
