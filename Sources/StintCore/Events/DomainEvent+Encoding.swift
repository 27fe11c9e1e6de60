extension DomainEvent {
    /// The payload object, members in the catalog's order, optional members left out when absent (the
    /// type's ``EventDeclaration``).
    public var data: JSON {
        let declaration = type.declaration
        let values = declaration.values(of: self)
        var object = JSONObjectBuilder()
        for index in declaration.fields.indices {
            values[index].add(to: &object, as: declaration.fields[index].name)
        }
        return object.json
    }
}
