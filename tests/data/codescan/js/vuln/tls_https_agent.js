const agent = new https.Agent({ rejectUnauthorized: false });

async function getInventory() {
  const { data } = await axios.get(`${process.env.INVENTORY_URL}/items`, { httpsAgent: agent, headers: { Authorization: `Bearer ${process.env.INVENTORY_TOKEN}` } });
  return data;
}
