// npm scripts put the registry `node` package (Node 24) first on PATH; say which Node runs, refuse an old one.
const major = Number(process.versions.node.split('.')[0]);
console.log(`node ${process.versions.node} (major ${major})`);
if (major < 22) {
  console.error('Node 22.12 or newer is required (npm install provides Node 24 through the `node` package)');
  process.exit(1);
}
