import Shared

/// The smallest app the simulator can run: every row shows its title and the placeholder, and nothing
/// is ever loaded. The growth curve uses it so the figures are the simulator's own cost (frames, layout,
/// cell reuse, scroll physics, the screen checks), not the imaging work the step benchmarks time.
final class PlaceholderApp: TableViewController {
    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        phone.movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel.text = phone.movies[indexPath.row].name
        cell.imageView.image = Image.placeholder
        return cell
    }
}
